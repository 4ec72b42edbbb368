-- The hourly multi-dimensional click cube (docs/analytics-storage.md). Partitioned by ranges of
-- `sample` (0-255, from the visitor hash) so that a 1/2^k sample of visitors reads only the
-- partitions below 256/2^k: [0,1) [1,2) [2,4) … [128,256).
CREATE TABLE "click_cube" (
    "organization_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(0) NOT NULL,
    "link_id" UUID NOT NULL,
    "is_bot" BOOLEAN NOT NULL,
    "country_code" TEXT,
    "region" TEXT,
    "city" TEXT,
    "timezone" TEXT,
    "device_type" TEXT,
    "platform" TEXT,
    "os" TEXT,
    "browser" TEXT,
    "referrer_host" TEXT,
    "utm_source" TEXT,
    "utm_medium" TEXT,
    "utm_campaign" TEXT,
    "variant_index" SMALLINT,
    "rule_index" SMALLINT,
    "sample" SMALLINT NOT NULL,
    "clicks" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL
) PARTITION BY RANGE ("sample");

CREATE TABLE "click_cube_s0" PARTITION OF "click_cube" FOR VALUES FROM (0) TO (1);
CREATE TABLE "click_cube_s1" PARTITION OF "click_cube" FOR VALUES FROM (1) TO (2);
CREATE TABLE "click_cube_s2" PARTITION OF "click_cube" FOR VALUES FROM (2) TO (4);
CREATE TABLE "click_cube_s3" PARTITION OF "click_cube" FOR VALUES FROM (4) TO (8);
CREATE TABLE "click_cube_s4" PARTITION OF "click_cube" FOR VALUES FROM (8) TO (16);
CREATE TABLE "click_cube_s5" PARTITION OF "click_cube" FOR VALUES FROM (16) TO (32);
CREATE TABLE "click_cube_s6" PARTITION OF "click_cube" FOR VALUES FROM (32) TO (64);
CREATE TABLE "click_cube_s7" PARTITION OF "click_cube" FOR VALUES FROM (64) TO (128);
CREATE TABLE "click_cube_s8" PARTITION OF "click_cube" FOR VALUES FROM (128) TO (256);

CREATE INDEX "click_cube_organization_id_hour_idx" ON "click_cube"("organization_id", "hour");

-- The cube's sample stratum of a visitor hash (hex): its first byte. cubeSample (JS) does the same.
CREATE FUNCTION dl_cube_sample(visitor_hash text) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
  $$ SELECT get_byte(decode(substr(visitor_hash, 1, 2), 'hex'), 0)::smallint $$;

-- Stored clicks enter the cube once, a row per (hour, link, dimensions); a click is a visitor when
-- it is its visitor's first non-bot click on the link that UTC day (as click_daily_visitors counts).
INSERT INTO "click_cube" ("organization_id", "hour", "link_id", "is_bot", "country_code", "region", "city", "timezone",
  "device_type", "platform", "os", "browser", "referrer_host", "utm_source", "utm_medium", "utm_campaign",
  "variant_index", "rule_index", "sample", "clicks", "visitors")
SELECT c.organization_id, date_trunc('hour', c.clicked_at), c.link_id, c.is_bot, c.country_code, c.region, c.city, c.timezone,
  c.device_type, c.platform, c.os, c.browser, c.referrer_host, c.utm_source, c.utm_medium, c.utm_campaign,
  c.variant_index, c.rule_index, dl_cube_sample(c.visitor_hash), count(*)::int, count(*) FILTER (WHERE c.first_visit)::int
FROM (
  SELECT k.*, NOT k.is_bot AND row_number() OVER (
    PARTITION BY k.link_id, (k.clicked_at AT TIME ZONE 'UTC')::date, k.visitor_hash, k.is_bot ORDER BY k.clicked_at, k.id) = 1 AS first_visit
  FROM "clicks" k) c
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19;
