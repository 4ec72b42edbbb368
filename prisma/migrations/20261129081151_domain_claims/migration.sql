-- Branded domain claims (decisions §22): a pending claim no longer blocks other organizations.
-- A name is unique per organization (pending or not) and, through held_name (the name while
-- verified or invalid, NULL while pending), held by at most one organization: the first to verify.
-- A plain unique index over a nullable column, since the schema engine does not see partial indexes.
-- DropIndex
DROP INDEX "domains_domain_key";

-- AlterTable
ALTER TABLE "domains" ADD COLUMN     "held_name" TEXT;
UPDATE "domains" SET "held_name" = "domain" WHERE "status" <> 'pending';

-- CreateIndex
CREATE UNIQUE INDEX "domains_held_name_key" ON "domains"("held_name");

-- CreateIndex
CREATE UNIQUE INDEX "domains_domain_organization_id_key" ON "domains"("domain", "organization_id");
