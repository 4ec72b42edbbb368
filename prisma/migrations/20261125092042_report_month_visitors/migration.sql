-- The monthly report's exact unique visitors was a DISTINCT over every click_daily_visitors row
-- of the organization's month (about a million rows for a million clicks: most of the report's
-- time). click_monthly_visitors keeps that distinct set per organization and calendar month, so
-- the count reads one row per visitor. It is kept by statement triggers on click_daily_visitors,
-- so every writer (the click pipeline, link deletion, retention, fixtures) keeps it exact:
-- `link_days` counts the daily rows of that month holding the hash, and the row leaves at 0.

-- Organization-wide rollup reads (report, usage, overview) take one dimension over a day range:
-- with the dimension before the day that range is contiguous (was: every dimension of each day).
-- DropIndex
DROP INDEX "click_rollups_organization_id_day_dimension_idx";

-- CreateTable
CREATE TABLE "click_monthly_visitors" (
    "organization_id" UUID NOT NULL,
    "month" DATE NOT NULL,
    "visitor_hash" TEXT NOT NULL,
    "link_days" INTEGER NOT NULL,

    CONSTRAINT "click_monthly_visitors_pkey" PRIMARY KEY ("organization_id","month","visitor_hash")
);

-- CreateIndex
CREATE INDEX "click_rollups_organization_id_dimension_day_idx" ON "click_rollups"("organization_id", "dimension", "day");

-- A returning visitor's row is updated in place (link_days, in no index): heap-only with room on the page.
ALTER TABLE "click_monthly_visitors" SET (fillfactor = 70);

-- Rows are taken in key order (as the click pipeline sorts its own rows), so concurrent writers cannot deadlock here.
CREATE FUNCTION click_monthly_visitors_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO click_monthly_visitors AS m (organization_id, month, visitor_hash, link_days)
  SELECT organization_id, date_trunc('month', day::timestamp)::date, visitor_hash, count(*)::int
  FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (organization_id, month, visitor_hash) DO UPDATE SET link_days = m.link_days + EXCLUDED.link_days;
  RETURN NULL;
END $$;

CREATE FUNCTION click_monthly_visitors_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    SELECT organization_id, date_trunc('month', day::timestamp)::date AS month, visitor_hash, count(*)::int AS n
    FROM removed GROUP BY 1, 2, 3
  ), locked AS (
    SELECT m.organization_id, m.month, m.visitor_hash, m.link_days - g.n AS link_days
    FROM click_monthly_visitors m JOIN gone g USING (organization_id, month, visitor_hash)
    ORDER BY 1, 2, 3 FOR UPDATE OF m
  ), emptied AS (
    DELETE FROM click_monthly_visitors m USING locked l
    WHERE m.organization_id = l.organization_id AND m.month = l.month AND m.visitor_hash = l.visitor_hash AND l.link_days <= 0
  )
  UPDATE click_monthly_visitors m SET link_days = l.link_days FROM locked l
  WHERE m.organization_id = l.organization_id AND m.month = l.month AND m.visitor_hash = l.visitor_hash AND l.link_days > 0;
  RETURN NULL;
END $$;

CREATE TRIGGER click_daily_visitors_month_add AFTER INSERT ON click_daily_visitors
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION click_monthly_visitors_add();
CREATE TRIGGER click_daily_visitors_month_remove AFTER DELETE ON click_daily_visitors
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION click_monthly_visitors_remove();

-- Backfill from the daily rows already stored.
INSERT INTO click_monthly_visitors (organization_id, month, visitor_hash, link_days)
SELECT organization_id, date_trunc('month', day::timestamp)::date, visitor_hash, count(*)::int
FROM click_daily_visitors GROUP BY 1, 2, 3;
