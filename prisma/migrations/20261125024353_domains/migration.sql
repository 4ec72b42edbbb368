-- CreateEnum
CREATE TYPE "DomainStatus" AS ENUM ('pending', 'verified', 'invalid');

-- CreateTable
CREATE TABLE "domains" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "status" "DomainStatus" NOT NULL DEFAULT 'pending',
    "verification_token" CHAR(32) NOT NULL,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "root_redirect_url" TEXT,
    "not_found_url" TEXT,
    "verification_error" TEXT,
    "failed_checks" INTEGER NOT NULL DEFAULT 0,
    "verified_at" TIMESTAMPTZ(3),
    "last_checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domains_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "domains_domain_key" ON "domains"("domain");

-- CreateIndex
CREATE INDEX "domains_organization_id_created_at_idx" ON "domains"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "domains_status_last_checked_at_idx" ON "domains"("status", "last_checked_at");

-- CreateIndex
CREATE UNIQUE INDEX "domains_one_default_per_organization" ON "domains"("organization_id") WHERE (is_default);

-- AddForeignKey
ALTER TABLE "domains" ADD CONSTRAINT "domains_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
