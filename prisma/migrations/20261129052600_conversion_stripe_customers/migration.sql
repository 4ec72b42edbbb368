-- Prisma's schema engine cannot describe CHECK constraints (its describer panics on them, which
-- stops `migrate dev` for everyone): the amount rules live in the repository (sales are locked
-- while refunded) and the DTOs (0 to 10^12) instead.
ALTER TABLE "sales" DROP CONSTRAINT IF EXISTS "sales_amounts_check";
ALTER TABLE "refunds" DROP CONSTRAINT IF EXISTS "refunds_amount_check";

-- AlterTable
ALTER TABLE "customers" ADD COLUMN "stripe_customer_id" TEXT;

-- CreateIndex
CREATE INDEX "customers_organization_id_stripe_customer_id_idx" ON "customers"("organization_id", "stripe_customer_id");
