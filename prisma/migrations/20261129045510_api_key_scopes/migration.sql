-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_used_ip" TEXT,
ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['all']::TEXT[];
