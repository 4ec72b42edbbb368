import type { PackedClickBatch } from './click-batch-codec';

/** Raw facts of a click as seen at the edge; enrichment happens in the worker. */
export interface ClickCapturedJob {
  /** UUIDv7 made at the edge from the click time (`newClickId`): with `clickedAt`, the click's primary key (a replayed job inserts nothing). */
  id: string;
  linkId: string;
  organizationId: string;
  clickedAt: string;
  /** The facts below may be missing (the edge leaves out a null one): the worker reads a missing fact as null. */
  ip?: string | null;
  userAgent?: string | null;
  referrer?: string | null;
  acceptLanguage?: string | null;
  /** utm_* parameters from the short URL's own query string (missing when none: read as {}). */
  query?: Record<string, string>;
  /** The A/B variant (index in the link's `variants`) the visitor was sent to, when one was. */
  variantIndex?: number;
  /** The redirect rule (index in `redirectRules`) that chose the destination, when one did. */
  ruleIndex?: number;
}

/**
 * The edge's transport: one job per flush (a few to 500 clicks), job id derived from its
 * click ids (`clickBatchJobId`). Exactness is per click in the consumer (a click's id is its
 * primary key), so a batch re-sent with other neighbours never double counts. The edge sends
 * the packed form (`packClickBatch`); the consumer reads both (`unpackClickBatch`), so jobs
 * queued by an earlier release, and other producers of `{clicks}`, still count.
 */
export type ClickBatchJob = { clicks: ClickCapturedJob[] } | PackedClickBatch;
