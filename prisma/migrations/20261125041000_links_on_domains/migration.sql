-- Branded domains, second step (decisions §15): links are on a domain (domain_id, with its name
-- copied in domain_name; '' = the service's own host, so every existing link stays there) and
-- short codes are unique per (domain_name, short_code).
-- One default domain per organization becomes a plain unique over (organization_id, is_default)
-- with is_default true or NULL: the schema engine here does not see partial indexes, so the
-- partial one made by the previous migration is replaced by one the schema can own.
DROP INDEX "domains_one_default_per_organization";
-- DropIndex
DROP INDEX "links_short_code_key";

-- AlterTable
ALTER TABLE "domains" ALTER COLUMN "is_default" DROP NOT NULL,
ALTER COLUMN "is_default" DROP DEFAULT;
UPDATE "domains" SET "is_default" = NULL WHERE "is_default" = false;

-- AlterTable
ALTER TABLE "links" ADD COLUMN     "domain_id" UUID,
ADD COLUMN     "domain_name" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE UNIQUE INDEX "domains_one_default_per_organization" ON "domains"("organization_id", "is_default");

-- CreateIndex
CREATE INDEX "links_domain_id_idx" ON "links"("domain_id");

-- CreateIndex
CREATE UNIQUE INDEX "links_domain_name_short_code_key" ON "links"("domain_name", "short_code");

-- AddForeignKey
ALTER TABLE "links" ADD CONSTRAINT "links_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
