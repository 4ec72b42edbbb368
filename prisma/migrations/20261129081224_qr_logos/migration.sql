-- CreateTable
CREATE TABLE "qr_logos" (
    "link_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "content_type" TEXT NOT NULL,
    "body" BYTEA NOT NULL,
    "raster" BYTEA,
    "sha256" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "qr_logos_pkey" PRIMARY KEY ("link_id")
);

-- CreateIndex
CREATE INDEX "qr_logos_organization_id_idx" ON "qr_logos"("organization_id");
