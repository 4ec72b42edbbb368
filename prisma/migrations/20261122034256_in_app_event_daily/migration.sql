-- CreateTable
CREATE TABLE "in_app_event_daily" (
    "organization_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "event_name" TEXT NOT NULL,
    "events" INTEGER NOT NULL DEFAULT 0,
    "revenue" DECIMAL(20,4) NOT NULL DEFAULT 0,
    "last_occurred" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "in_app_event_daily_pkey" PRIMARY KEY ("organization_id","day","event_name")
);

-- CreateIndex
CREATE INDEX "in_app_event_daily_organization_id_event_name_day_idx" ON "in_app_event_daily"("organization_id", "event_name", "day");
