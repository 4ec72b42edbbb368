-- Decisions §14: every stored URL is in its WHATWG form, so a Location header built from it
-- is always valid. New writes are normalised by the services (`new URL(v).href`); rows stored
-- before that are fixed here. SQL has no WHATWG parser: this does the part that matters for
-- headers (leading/trailing C0 controls and spaces trimmed, tabs and newlines removed, every
-- other byte outside visible ASCII percent-encoded as UTF-8). An IDN host becomes its
-- percent-encoded form, which WHATWG parsers (browsers) decode back to the same host.
-- The functions live in pg_temp: nothing is left in the schema.

CREATE FUNCTION pg_temp.dl_url(v text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  out text := '';
  ch text;
  b bytea;
  i int;
BEGIN
  IF v IS NULL OR v !~ '[^!-~]' THEN
    RETURN v;
  END IF;
  v := regexp_replace(v, '^[\x01-\x20]+|[\x01-\x20]+$', '', 'g');
  v := regexp_replace(v, '[\x09\x0A\x0D]', '', 'g');
  FOREACH ch IN ARRAY regexp_split_to_array(v, '') LOOP
    IF ch ~ '^[!-~]$' THEN
      out := out || ch;
    ELSE
      b := convert_to(ch, 'UTF8');
      FOR i IN 0 .. length(b) - 1 LOOP
        out := out || '%' || upper(lpad(to_hex(get_byte(b, i)), 2, '0'));
      END LOOP;
    END IF;
  END LOOP;
  RETURN out;
END
$$;

CREATE FUNCTION pg_temp.dl_url_fields(d jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(
    jsonb_object_agg(
      key,
      CASE
        WHEN key IN ('originalUrl', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'iosUniversalLink', 'androidAppLink', 'ogImageUrl')
          AND jsonb_typeof(value) = 'string'
        THEN to_jsonb(pg_temp.dl_url(value #>> '{}'))
        ELSE value
      END
    ),
    '{}'::jsonb
  )
  FROM jsonb_each(d)
$$;

UPDATE "links"
SET "original_url" = pg_temp.dl_url("original_url"),
    "ios_url" = pg_temp.dl_url("ios_url"),
    "android_url" = pg_temp.dl_url("android_url"),
    "web_fallback_url" = pg_temp.dl_url("web_fallback_url"),
    "ios_universal_link" = pg_temp.dl_url("ios_universal_link"),
    "android_app_link" = pg_temp.dl_url("android_app_link"),
    "og_image_url" = pg_temp.dl_url("og_image_url")
WHERE "original_url" ~ '[^!-~]'
   OR "ios_url" ~ '[^!-~]'
   OR "android_url" ~ '[^!-~]'
   OR "web_fallback_url" ~ '[^!-~]'
   OR "ios_universal_link" ~ '[^!-~]'
   OR "android_app_link" ~ '[^!-~]'
   OR "og_image_url" ~ '[^!-~]';

UPDATE "templates"
SET "defaults" = pg_temp.dl_url_fields("defaults")
WHERE jsonb_typeof("defaults") = 'object' AND "defaults"::text ~ '[^ -~]';

UPDATE "webhooks" SET "url" = pg_temp.dl_url("url") WHERE "url" ~ '[^!-~]';

UPDATE "apps" SET "app_store_url" = pg_temp.dl_url("app_store_url") WHERE "app_store_url" ~ '[^!-~]';
