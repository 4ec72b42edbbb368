-- AlterTable
ALTER TABLE "links" ADD COLUMN     "safety_checked_at" TIMESTAMPTZ(3),
ADD COLUMN     "safety_reason" TEXT,
ADD COLUMN     "safety_status" TEXT NOT NULL DEFAULT 'ok';
