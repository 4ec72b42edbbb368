-- CreateEnum
CREATE TYPE "SsoType" AS ENUM ('oidc', 'saml');

-- CreateEnum
CREATE TYPE "SsoDomainStatus" AS ENUM ('pending', 'verified');

-- CreateTable
CREATE TABLE "sso_connections" (
    "organization_id" UUID NOT NULL,
    "type" "SsoType" NOT NULL,
    "issuer" TEXT,
    "client_id" TEXT,
    "client_secret" TEXT,
    "entry_point" TEXT,
    "certificate" TEXT,
    "idp_metadata_xml" TEXT,
    "enforce" BOOLEAN NOT NULL DEFAULT false,
    "default_role" "Role" NOT NULL DEFAULT 'MEMBER',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_connections_pkey" PRIMARY KEY ("organization_id")
);

-- CreateTable
CREATE TABLE "sso_domains" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "status" "SsoDomainStatus" NOT NULL DEFAULT 'pending',
    "token" CHAR(32) NOT NULL,
    "verified_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_domains_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sso_domains_domain_idx" ON "sso_domains"("domain");

-- CreateIndex
CREATE UNIQUE INDEX "sso_domains_organization_id_domain_key" ON "sso_domains"("organization_id", "domain");

-- AddForeignKey
ALTER TABLE "sso_connections" ADD CONSTRAINT "sso_connections_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An email domain is verified by one organization at most (several may have it pending).
CREATE UNIQUE INDEX "sso_domains_verified_domain" ON "sso_domains"("domain") WHERE (status = 'verified');
