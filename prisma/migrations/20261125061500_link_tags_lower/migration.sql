-- GET /api/links?tag=… matches tags case-insensitively (tags are case-insensitively unique per
-- link, decisions §16): a GIN index over the lower-cased tags. array_in/array_out are only
-- STABLE, so the lower-casing is an IMMUTABLE SQL function the index can use.
CREATE FUNCTION dl_lower_tags(text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(lower(t)), '{}'::text[]) FROM unnest($1) AS t $$;

CREATE INDEX "links_tags_lower_idx" ON "links" USING GIN (dl_lower_tags("tags"));
