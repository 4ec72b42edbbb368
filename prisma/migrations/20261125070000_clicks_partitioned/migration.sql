-- clicks partitioned by month of clicked_at (decisions §18, docs/clicks-at-scale.md).
-- The whole script runs as one transaction (one simple-protocol query, as Prisma's engine
-- sends it): the plain table is locked, renamed, copied into the partitioned one, the counts
-- are compared, and the old table is dropped; a failure anywhere rolls all of it back.
-- Inserts arriving meanwhile wait on the lock and then go to the new table (Postgres looks
-- the name up again after the wait). At hundreds of millions of rows the copy holds that lock
-- for minutes: see docs/clicks-at-scale.md for the staged path.

LOCK TABLE "clicks" IN ACCESS EXCLUSIVE MODE;

ALTER TABLE "clicks" RENAME TO "clicks_unpartitioned";
ALTER TABLE "clicks_unpartitioned" RENAME CONSTRAINT "clicks_pkey" TO "clicks_unpartitioned_pkey";
ALTER INDEX "clicks_link_id_clicked_at_idx" RENAME TO "clicks_unpartitioned_link_idx";
ALTER INDEX "clicks_organization_id_fingerprint_clicked_at_idx" RENAME TO "clicks_unpartitioned_fingerprint_idx";
ALTER INDEX "clicks_clicked_at_idx" RENAME TO "clicks_unpartitioned_brin_idx";

-- Same columns in the same order (so SELECT * copies), defaults and NOT NULLs.
CREATE TABLE "clicks" (LIKE "clicks_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("clicked_at");
-- The partition key is part of the key: a replay carries the same (id, clicked_at), so
-- ON CONFLICT (id, clicked_at) DO NOTHING keeps a click counted once.
ALTER TABLE "clicks" ADD CONSTRAINT "clicks_pkey" PRIMARY KEY ("id", "clicked_at");
CREATE INDEX "clicks_link_id_clicked_at_idx" ON "clicks"("link_id", "clicked_at" DESC);
CREATE INDEX "clicks_organization_id_fingerprint_clicked_at_idx" ON "clicks"("organization_id", "fingerprint", "clicked_at" DESC);
-- Rows outside every monthly partition (older than the retention horizon, or a clock far
-- ahead): kept, never refused.
CREATE TABLE "clicks_default" PARTITION OF "clicks" DEFAULT;

-- Creates the partition of the UTC month holding `month` when it is missing: a plain table,
-- the default partition's rows of that month moved into it, then attached (Postgres checks
-- the default holds none of the range any more). Returns whether it created one. Used here
-- and by the worker's `clicks.partitions` job (months ahead).
CREATE FUNCTION dl_clicks_ensure_partition(in_month date) RETURNS boolean
  LANGUAGE plpgsql AS $$
DECLARE
  first_day date := date_trunc('month', in_month)::date;
  from_at timestamptz := first_day::timestamp AT TIME ZONE 'UTC';
  to_at timestamptz := (first_day + interval '1 month')::timestamp AT TIME ZONE 'UTC';
  part text := 'clicks_p' || to_char(first_day, 'YYYYMM');
BEGIN
  IF to_regclass(format('%I', part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  -- No insert may route a row of this month into the default between the move and the attach.
  LOCK TABLE "clicks_default" IN SHARE ROW EXCLUSIVE MODE;
  EXECUTE format('CREATE TABLE %I (LIKE "clicks" INCLUDING DEFAULTS)', part);
  EXECUTE format(
    'WITH moved AS (DELETE FROM "clicks_default" WHERE clicked_at >= $1 AND clicked_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    part) USING from_at, to_at;
  EXECUTE format('ALTER TABLE "clicks" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, from_at, to_at);
  RETURN true;
END $$;

-- Every month from three years back (the longest plan retention) to three months ahead.
SELECT dl_clicks_ensure_partition(m::date)
FROM generate_series(
  date_trunc('month', now() AT TIME ZONE 'UTC') - interval '36 months',
  date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
  interval '1 month') AS m;

INSERT INTO "clicks" SELECT * FROM "clicks_unpartitioned";

DO $$
DECLARE
  before bigint := (SELECT count(*) FROM "clicks_unpartitioned");
  after bigint := (SELECT count(*) FROM "clicks");
  pairs bigint := (SELECT count(*) FROM (SELECT DISTINCT id FROM "clicks") d);
BEGIN
  IF before <> after OR pairs <> after THEN
    RAISE EXCEPTION 'clicks partitioning: % rows before, % after, % distinct ids', before, after, pairs;
  END IF;
END $$;

DROP TABLE "clicks_unpartitioned";
