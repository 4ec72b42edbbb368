-- click_cube summed per UTC day and per calendar month, one breakdown at a time, for the unfiltered
-- organization-wide view (docs/analytics-storage.md, "Daily roll-up"). Cube hours before
-- click_cube_state.rolled_before are in it: a roll-up adds the hours up to the last whole one, and a
-- click batch adds its own cube rows of hours already rolled (late clicks) itself.
CREATE TABLE "click_cube_daily" (
    "organization_id" UUID NOT NULL,
    "is_month" BOOLEAN NOT NULL,
    "is_bot" BOOLEAN NOT NULL,
    "day" DATE NOT NULL,
    "dimension" SMALLINT NOT NULL,
    "k1" TEXT,
    "k2" TEXT,
    "k3" TEXT,
    "clicks" INTEGER NOT NULL,
    "visitors" INTEGER NOT NULL
);

-- NULLS NOT DISTINCT: an unknown country (NULL) is one row per day, as it is one group in the cube.
CREATE UNIQUE INDEX "click_cube_daily_key" ON "click_cube_daily"("organization_id", "is_month", "is_bot", "day", "dimension", "k1", "k2", "k3") NULLS NOT DISTINCT;

CREATE TABLE "click_cube_state" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "rolled_before" TIMESTAMPTZ(0) NOT NULL,

    CONSTRAINT "click_cube_state_pkey" PRIMARY KEY ("id")
);

-- The roll-up reads an hour range of every organization; rows arrive in hour order.
CREATE INDEX "click_cube_hour_idx" ON "click_cube" USING BRIN ("hour");

-- The breakdowns of a cube row, one row each: 0 the total, then link, country, city (country,
-- region, city), device, OS, browser, referrer host, utm_source, utm_medium, utm_campaign
-- (DAILY_BREAKDOWNS in libs/analytics keeps the same order).
CREATE FUNCTION dl_cube_dims(c click_cube) RETURNS TABLE (dimension smallint, k1 text, k2 text, k3 text)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT * FROM (VALUES
    (0::smallint, NULL::text, NULL::text, NULL::text), (1::smallint, c.link_id::text, NULL, NULL),
    (2::smallint, c.country_code, NULL, NULL), (3::smallint, c.country_code, c.region, c.city), (4::smallint, c.device_type, NULL, NULL),
    (5::smallint, c.os, NULL, NULL), (6::smallint, c.browser, NULL, NULL), (7::smallint, c.referrer_host, NULL, NULL),
    (8::smallint, c.utm_source, NULL, NULL), (9::smallint, c.utm_medium, NULL, NULL), (10::smallint, c.utm_campaign, NULL, NULL)
  ) AS v(dimension, k1, k2, k3) $$;

-- Adds cube rows to their days and months: `source` is a FROM item of click_cube rows, which may
-- use $1 (json records), $2 and $3 (timestamptz). Keys are written in order (concurrent batches
-- adding late rows lock shared keys in the same order).
CREATE FUNCTION dl_cube_daily_upsert(source text, rows json, from_hour timestamptz, to_hour timestamptz) RETURNS void
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  EXECUTE format($q$
    WITH d AS (
      SELECT c.organization_id AS o, c.is_bot AS b, (c.hour AT TIME ZONE 'UTC')::date AS day, x.dimension, x.k1, x.k2, x.k3,
        sum(c.clicks)::int AS clicks, sum(c.visitors)::int AS visitors
      FROM %s c CROSS JOIN LATERAL dl_cube_dims(c) x
      GROUP BY 1, 2, 3, 4, 5, 6, 7
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

-- A click batch's cube rows of hours already rolled (late clicks), as click_cube json records.
CREATE FUNCTION dl_cube_daily_add(rows json) RETURNS void LANGUAGE sql VOLATILE AS $$
  SELECT dl_cube_daily_upsert('json_populate_recordset(NULL::click_cube, $1)', rows, NULL, NULL) $$;

-- A click batch, before it writes its cube rows: rolled_before, read after a shared lock that the
-- roll-up's exclusive lock waits for (so no batch writes a row of an hour being rolled unseen).
-- A separate statement after the lock: it reads what a roll-up committed while the batch waited.
CREATE FUNCTION dl_cube_rolled_before() RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('click_cube_daily', 0));
  RETURN (SELECT rolled_before FROM click_cube_state);
END $$;

-- Adds the cube hours in [rolled_before, up_to) to click_cube_daily and moves rolled_before to
-- up_to, under the exclusive lock; returns the new rolled_before (unchanged when already there).
CREATE FUNCTION dl_cube_roll(up_to timestamptz) RETURNS timestamptz LANGUAGE plpgsql VOLATILE AS $$
DECLARE w timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('click_cube_daily', 0));
  SELECT rolled_before INTO w FROM click_cube_state;
  IF up_to <= w THEN RETURN w; END IF;
  PERFORM dl_cube_daily_upsert('(SELECT * FROM click_cube WHERE hour >= $2 AND hour < $3)', NULL, w, up_to);
  UPDATE click_cube_state SET rolled_before = up_to;
  RETURN up_to;
END $$;

-- Every stored hour up to the last whole one.
INSERT INTO "click_cube_state" ("id", "rolled_before") VALUES (true, '-infinity');
SELECT dl_cube_roll(date_trunc('hour', now()));
