-- click_cube's total per UTC hour (clicks and daily uniques, bots apart), for the unfiltered view in a
-- zone whose days are not UTC days (docs/analytics-storage.md): its days are sums of these hours, its
-- lists click_cube_daily's whole UTC days plus the cube's hours at the window's two edges. Written with
-- click_cube_daily, by the same function: the hours before click_cube_state.rolled_before.
CREATE TABLE "click_cube_hourly" (
    "organization_id" UUID NOT NULL,
    "is_bot" BOOLEAN NOT NULL,
    "hour" TIMESTAMPTZ(0) NOT NULL,
    "clicks" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL,

    CONSTRAINT "click_cube_hourly_pkey" PRIMARY KEY ("organization_id", "is_bot", "hour")
);

-- As before, plus the hours' totals. The source is read once (MATERIALIZED): a roll-up's hour range
-- of click_cube, or a batch's late rows.
CREATE OR REPLACE FUNCTION dl_cube_daily_upsert(source text, rows json, from_hour timestamptz, to_hour timestamptz) RETURNS void
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  EXECUTE format($q$
    WITH src AS MATERIALIZED (SELECT * FROM %s c), d AS (
      SELECT c.organization_id AS o, c.is_bot AS b, (c.hour AT TIME ZONE 'UTC')::date AS day, x.dimension, x.k1, x.k2, x.k3,
        sum(c.clicks)::int AS clicks, sum(c.visitors)::int AS visitors
      FROM src c CROSS JOIN LATERAL dl_cube_dims(c) x
      GROUP BY 1, 2, 3, 4, 5, 6, 7
    ), hours AS (
      INSERT INTO click_cube_hourly (organization_id, is_bot, hour, clicks, visitors)
      SELECT c.organization_id, c.is_bot, c.hour, sum(c.clicks)::int, sum(c.visitors)::int FROM src c GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (organization_id, is_bot, hour)
        DO UPDATE SET clicks = click_cube_hourly.clicks + EXCLUDED.clicks, visitors = click_cube_hourly.visitors + EXCLUDED.visitors
    ), days AS (
      INSERT INTO click_cube_daily (organization_id, is_month, is_bot, day, dimension, k1, k2, k3, clicks, visitors)
      SELECT o, false, b, day, dimension, k1, k2, k3, clicks, visitors FROM d ORDER BY o, b, day, dimension, k1, k2, k3
      ON CONFLICT (organization_id, is_month, is_bot, day, dimension, k1, k2, k3)
        DO UPDATE SET clicks = click_cube_daily.clicks + EXCLUDED.clicks, visitors = click_cube_daily.visitors + EXCLUDED.visitors
    )
    INSERT INTO click_cube_daily (organization_id, is_month, is_bot, day, dimension, k1, k2, k3, clicks, visitors)
    SELECT o, true, b, date_trunc('month', day)::date, dimension, k1, k2, k3, sum(clicks)::int, sum(visitors)::int
    FROM d GROUP BY o, b, date_trunc('month', day)::date, dimension, k1, k2, k3 ORDER BY 1, 3, 4, 5, 6, 7, 8
    ON CONFLICT (organization_id, is_month, is_bot, day, dimension, k1, k2, k3)
      DO UPDATE SET clicks = click_cube_daily.clicks + EXCLUDED.clicks, visitors = click_cube_daily.visitors + EXCLUDED.visitors
  $q$, source) USING rows, from_hour, to_hour;
END $$;

-- The hours already rolled, under the roll-up's lock (one statement: the lock holds to its end).
DO $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('click_cube_daily', 0));
  INSERT INTO click_cube_hourly (organization_id, is_bot, hour, clicks, visitors)
  SELECT organization_id, is_bot, hour, sum(clicks)::int, sum(visitors)::int FROM click_cube
  WHERE hour < (SELECT rolled_before FROM click_cube_state) GROUP BY 1, 2, 3;
END $$;
