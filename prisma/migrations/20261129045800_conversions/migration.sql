-- CreateEnum
CREATE TYPE "SaleSource" AS ENUM ('api', 'stripe', 'shopify', 'pixel', 'sdk');

-- CreateEnum
CREATE TYPE "IntegrationProvider" AS ENUM ('stripe', 'shopify');

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "link_id" UUID,
    "click_id" UUID,
    "clicked_at" TIMESTAMPTZ(3),
    "country_code" TEXT,
    "utm_campaign" TEXT,
    "first_lead_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "link_id" UUID,
    "event_name" TEXT NOT NULL,
    "metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sales" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "customer_id" UUID,
    "link_id" UUID,
    "amount" BIGINT NOT NULL,
    "refunded" BIGINT NOT NULL DEFAULT 0,
    "currency" CHAR(3) NOT NULL,
    "event_name" TEXT NOT NULL,
    "invoice_id" TEXT,
    "payment_processor" TEXT,
    "source" "SaleSource" NOT NULL DEFAULT 'api',
    "country_code" TEXT NOT NULL DEFAULT '',
    "utm_campaign" TEXT NOT NULL DEFAULT '',
    "metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sales_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "sale_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "external_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "conversion_daily" (
    "organization_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "link_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "country_code" TEXT NOT NULL DEFAULT '',
    "utm_campaign" TEXT NOT NULL DEFAULT '',
    "currency" TEXT NOT NULL DEFAULT '',
    "leads" INTEGER NOT NULL DEFAULT 0,
    "sales" INTEGER NOT NULL DEFAULT 0,
    "amount" BIGINT NOT NULL DEFAULT 0,
    "refunded" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "conversion_daily_pkey" PRIMARY KEY ("organization_id","day","link_id","source","country_code","utm_campaign","currency")
);

-- CreateTable
CREATE TABLE "integrations" (
    "organization_id" UUID NOT NULL,
    "provider" "IntegrationProvider" NOT NULL,
    "token" TEXT NOT NULL,
    "webhook_secret" TEXT NOT NULL,
    "shop_domain" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("organization_id","provider")
);

-- CreateTable
CREATE TABLE "integration_events" (
    "organization_id" UUID NOT NULL,
    "provider" "IntegrationProvider" NOT NULL,
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integration_events_pkey" PRIMARY KEY ("organization_id","provider","event_id")
);

-- CreateIndex
CREATE INDEX "customers_organization_id_created_at_id_idx" ON "customers"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "customers_organization_id_link_id_idx" ON "customers"("organization_id", "link_id");

-- CreateIndex
CREATE UNIQUE INDEX "customers_organization_id_external_id_key" ON "customers"("organization_id", "external_id");

-- CreateIndex
CREATE INDEX "leads_organization_id_created_at_idx" ON "leads"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "leads_customer_id_event_name_key" ON "leads"("customer_id", "event_name");

-- CreateIndex
CREATE INDEX "sales_organization_id_created_at_idx" ON "sales"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "sales_customer_id_created_at_idx" ON "sales"("customer_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "sales_organization_id_invoice_id_key" ON "sales"("organization_id", "invoice_id");

-- CreateIndex
CREATE INDEX "refunds_sale_id_created_at_idx" ON "refunds"("sale_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_organization_id_external_id_key" ON "refunds"("organization_id", "external_id");

-- CreateIndex
CREATE INDEX "conversion_daily_link_id_day_idx" ON "conversion_daily"("link_id", "day");

-- CreateIndex
CREATE UNIQUE INDEX "integrations_token_key" ON "integrations"("token");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

