-- The breakdown before the day in click_cube_daily's key: a breakdown over a day range (the
-- view reads each with `dimension = ANY(…)`) is one contiguous index range per bot flag and
-- breakdown, instead of every breakdown's rows of those days. NULLS NOT DISTINCT as before.
DROP INDEX "click_cube_daily_key";

CREATE UNIQUE INDEX "click_cube_daily_key" ON "click_cube_daily"("organization_id", "is_month", "is_bot", "dimension", "day", "k1", "k2", "k3") NULLS NOT DISTINCT;
