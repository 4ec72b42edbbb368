-- Links whose screening no Safe Browsing lookup completed (decisions §22: accepted when Safe
-- Browsing cannot be reached, re-checked later by the worker). Partial: only those rows.
CREATE INDEX "links_safety_unchecked_idx" ON "links" ("id") WHERE "safety_checked_at" IS NULL;
