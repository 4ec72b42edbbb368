-- Link controls (decisions §16): passwords, click caps, expiry fallbacks, A/B variants,
-- redirect rules, cloaking, public stats; the variant and rule of each click.
ALTER TABLE "links"
  ADD COLUMN "password_hash" TEXT,
  ADD COLUMN "expired_url" TEXT,
  ADD COLUMN "max_clicks" INTEGER,
  ADD COLUMN "variants" JSONB,
  ADD COLUMN "redirect_rules" JSONB,
  ADD COLUMN "cloak" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "public_stats" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "clicks"
  ADD COLUMN "variant_index" SMALLINT,
  ADD COLUMN "rule_index" SMALLINT;

-- GET /api/links?tag=… (any of) and GET /api/tags.
CREATE INDEX "links_tags_idx" ON "links" USING GIN ("tags");

-- GET /api/links?search=…: case-insensitive substring of title, short code or destination,
-- one trigram index over the three (a LIKE '%term%' of 3+ characters uses it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "links_search_trgm_idx" ON "links" USING GIN (
  (lower(coalesce("title", '') || E'\n' || "short_code" || E'\n' || "original_url")) gin_trgm_ops
);
