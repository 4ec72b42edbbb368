-- CreateTable
CREATE TABLE "conversion_org_daily" (
    "organization_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "source" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT '',
    "leads" INTEGER NOT NULL DEFAULT 0,
    "sales" INTEGER NOT NULL DEFAULT 0,
    "amount" BIGINT NOT NULL DEFAULT 0,
    "refunded" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "conversion_org_daily_pkey" PRIMARY KEY ("organization_id","day","source","currency")
);
