-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "first_sale_at" TIMESTAMPTZ(3);
