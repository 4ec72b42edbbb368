-- CreateIndex
CREATE INDEX "click_rollups_link_id_dimension_day_idx" ON "click_rollups"("link_id", "dimension", "day");
