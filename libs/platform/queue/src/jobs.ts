import type { ClickBatchJob, ClickCapturedJob } from '@dl/platform/click-codec';

/**
 * The one registry of queues, job names and their payload types. Producers and
 * consumers import from here; the worker refuses to start when a job name has
 * no handler (see `assertHandlers`).
 */

export const Queues = {
  clicks: 'clicks',
  webhooks: 'webhooks',
  webhookDrains: 'webhook-drains',
  ingest: 'ingest',
  reports: 'reports',
  maintenance: 'maintenance',
} as const;
export type QueueName = (typeof Queues)[keyof typeof Queues];

export interface WebhookEventEnvelope {
  /** Stable event id, sent as `webhook-id` on every attempt. */
  eventId: string;
  organizationId: string;
  /** For project-filtered webhooks. */
  projectId: string | null;
  occurredAt: string;
}

/** An event's type and its `data`, typed by the type (WebhookEventData). */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: { type: K; data: WebhookEventData[K] };
}[T];

/** A domain event fanned out to the organization's matching webhooks. */
export type WebhookEventJob<T extends WebhookEventType = WebhookEventType> = WebhookEventEnvelope & WebhookEvent<T>;

export const WebhookEventTypes = [
  'link.clicked',
  'link.created',
  'link.updated',
  'link.deleted',
  'install.attributed',
  'report.generated',
  'lead.created',
  'sale.created',
  'link.flagged',
] as const;
export type WebhookEventType = (typeof WebhookEventTypes)[number];

/**
 * `data` of `link.clicked` (the spec's body): `{event: 'link.clicked', link: {id, shortCode,
 * migration_metadata}, click: {device, country, timestamp}}`. Other kinds carry the resource
 * (`link.*`: the link; `install.attributed`: the install; `report.generated`: the report summary).
 */
export interface LinkClickedWebhookData {
  event: 'link.clicked';
  link: {
    id: string;
    shortCode: string;
    migration_metadata: { competitorPlatform: string | null; competitorId: string | null } | null;
  };
  click: { device: string | null; country: string | null; timestamp: string };
}

/** `data` of `link.created`, `link.updated`, `link.deleted`: the link as the API returns it, plus `migration_metadata`. */
export interface LinkChangedWebhookData {
  id: string;
  shortCode: string;
  migration_metadata?: unknown;
  [field: string]: unknown;
}

/** `data` of `install.attributed`: the attributed install and its link. */
export interface InstallAttributedWebhookData {
  id: string;
  installId: string;
  appId: string;
  platform: string;
  osVersion: string | null;
  deviceModel: string | null;
  appVersion: string | null;
  matchType: string | null;
  ambiguous: boolean;
  clickId: string | null;
  attributedAt: string | null;
  link: { id: string | null; shortCode: string | null };
}

/** `data` of `report.generated`: the stored monthly report's summary. */
export interface ReportGeneratedWebhookData {
  period: string;
  label: string;
  generatedAt: string;
  clicks: number;
  url: string;
}

/** `data` of `lead.created` (decisions §23): shaped as the tracking API's answer, plus the link. */
export interface LeadCreatedWebhookData {
  customer: { id: string; externalId: string; linkId: string | null; clickId: string | null };
  lead: { id: string; eventName: string; createdAt: string };
  linkId: string | null;
}

/** `data` of `sale.created` (decisions §23): shaped as the tracking API's answer, plus the link. */
export interface SaleCreatedWebhookData {
  customer: { id: string; externalId: string } | null;
  sale: { id: string; amount: number; currency: string; linkId: string | null; customerId: string | null; invoiceId: string | null; createdAt: string };
  linkId: string | null;
}

/** `data` of `link.flagged` (decisions §22): a link blocked by re-screening. */
export interface LinkFlaggedWebhookData {
  linkId: string;
  shortCode: string;
  reason: string;
}

/** Event type → its `data`. */
export interface WebhookEventData {
  'link.clicked': LinkClickedWebhookData;
  'link.created': LinkChangedWebhookData;
  'link.updated': LinkChangedWebhookData;
  'link.deleted': LinkChangedWebhookData;
  'install.attributed': InstallAttributedWebhookData;
  'report.generated': ReportGeneratedWebhookData;
  'lead.created': LeadCreatedWebhookData;
  'sale.created': SaleCreatedWebhookData;
  'link.flagged': LinkFlaggedWebhookData;
}

/** One delivery of one event to one webhook (a `webhook_deliveries` row); produced by the worker's fan-out and the test endpoint. */
export interface WebhookDeliverJob {
  deliveryId: string;
  webhookId: string;
  organizationId: string;
  /** Sent as `webhook-id`: the same on every attempt. */
  eventId: string;
  /** The exact JSON body sent (signed as is). */
  body: string;
  /** A test delivery (POST /api/webhooks/:id/test) is sent even to a disabled webhook. */
  test?: boolean;
}

/** Sends the due deliveries of one webhook (its lane in Redis), a batch per rate window; one such job per webhook at a time. */
export interface WebhookDrainJob {
  organizationId: string;
  webhookId: string;
}

export interface SdkInstallJob {
  organizationId: string;
  appId: string;
  installId: string;
  platform: string;
  osVersion: string | null;
  deviceModel: string | null;
  language: string | null;
  appVersion: string | null;
  ip: string | null;
  fingerprint: string | null;
  clickId: string | null;
  linkId: string | null;
  matchType: 'clickId' | 'fingerprint' | null;
  ambiguous: boolean;
  receivedAt: string;
}

export interface SdkOpenJob {
  /** Made at the edge: a replayed job inserts nothing. */
  id: string;
  organizationId: string;
  appId: string;
  installId: string;
  url: string | null;
  openedAt: string;
}

/** One in-app event as accepted by the ingest app (id made there, or derived from the SDK's own id). */
export interface SdkEventRecord {
  id: string;
  organizationId: string;
  appId: string;
  installId: string;
  eventName: string;
  eventData: Record<string, unknown>;
  eventTimestamp: string;
  /** Set for events named `revenue` (validated at the edge). */
  revenue: number | null;
  currency: string | null;
  receivedAt: string;
}

/** The ingest app micro-batches accepted events: one job carries up to a few hundred. */
export interface SdkEventJob {
  events: SdkEventRecord[];
}

export interface PixelEventJob {
  /** Made at the edge: a replayed job inserts nothing. */
  id: string;
  organizationId: string;
  siteId: string;
  type: 'pageview' | 'conversion';
  url: string;
  referrer: string | null;
  clickId: string | null;
  value: number | null;
  currency: string | null;
  occurredAt: string;
}

export interface MonthlyReportsRunJob {
  /** YYYY-MM of the finished month to generate for every organization. */
  period: string;
}

export interface MonthlyReportJob {
  organizationId: string;
  period: string;
  email: boolean;
}

export interface PruneClicksJob {
  /** ISO time the retention is computed from (tests pass a controlled clock). */
  now?: string;
}

/** Creates the monthly partitions of `clicks` from `now`'s month to three months ahead. */
export interface ClickPartitionsJob {
  /** ISO time the months are counted from (tests pass a controlled clock). */
  now?: string;
}

/** Re-checks the branded domains due at `now` (decisions §15); the schedule runs it every 10 minutes. */
export interface DomainsRecheckJob {
  /** ISO time the due checks are computed from (tests pass a controlled clock). */
  now?: string;
}

/** Deletes the organizations whose scheduled deletion date has come (decisions §20); the schedule runs it hourly. */
export interface OrganizationsDeleteDueJob {
  /** ISO time the due deletions are computed from (tests pass a controlled clock). */
  now?: string;
}

/** Deletes audit entries past their organization's plan retention (decisions §25); daily. */
export interface AuditPruneJob {
  /** ISO time the retention is computed from (tests pass a controlled clock). */
  now?: string;
}

/** Job name → payload, per queue. */
export interface JobPayloads {
  /** `click.captured` (one click per job) is the former transport, still drained. */
  clicks: { 'click.captured': ClickCapturedJob; 'click.batch': ClickBatchJob };
  webhooks: { 'webhook.event': WebhookEventJob; 'webhook.deliver': WebhookDeliverJob };
  /** One job per webhook with pending deliveries (its own queue: never behind a backlog of events). */
  'webhook-drains': { 'webhook.drain': WebhookDrainJob };
  ingest: {
    'sdk.install': SdkInstallJob;
    'sdk.open': SdkOpenJob;
    'sdk.event': SdkEventJob;
    'pixel.event': PixelEventJob;
  };
  reports: { 'reports.monthly-run': MonthlyReportsRunJob; 'reports.monthly': MonthlyReportJob };
  maintenance: {
    'clicks.prune': PruneClicksJob;
    'clicks.partitions': ClickPartitionsJob;
    'domains.recheck': DomainsRecheckJob;
    'organizations.delete-due': OrganizationsDeleteDueJob;
    'audit.prune': AuditPruneJob;
  };
}

export type JobName<Q extends QueueName> = keyof JobPayloads[Q] & string;
export type JobPayload<Q extends QueueName, N extends JobName<Q>> = JobPayloads[Q][N];

/** What a handler knows of its job besides the payload. */
export interface JobMeta {
  jobId: string;
  attemptsMade: number;
}

/** A handler for every job name of a queue: the compiler refuses a missing one. */
export type QueueHandlers<Q extends QueueName> = {
  [N in JobName<Q>]: (payload: JobPayloads[Q][N], meta: JobMeta) => Promise<unknown>;
};

/** Every job name of every queue, for the boot-time check. */
export const JOB_NAMES: { [Q in QueueName]: JobName<Q>[] } = {
  clicks: ['click.captured', 'click.batch'],
  webhooks: ['webhook.event', 'webhook.deliver'],
  'webhook-drains': ['webhook.drain'],
  ingest: ['sdk.install', 'sdk.open', 'sdk.event', 'pixel.event'],
  reports: ['reports.monthly-run', 'reports.monthly'],
  maintenance: ['clicks.prune', 'clicks.partitions', 'domains.recheck', 'organizations.delete-due', 'audit.prune'],
};

/** Refuses to start a consumer whose handler map misses a job name or has an unknown one. */
export function assertHandlers<Q extends QueueName>(queue: Q, handlers: Partial<QueueHandlers<Q>>): void {
  const expected = new Set<string>(JOB_NAMES[queue]);
  const given = new Set(Object.keys(handlers));
  const missing = [...expected].filter((n) => !given.has(n));
  const unknown = [...given].filter((n) => !expected.has(n));
  if (missing.length || unknown.length) {
    throw new Error(
      `Queue "${queue}" handlers do not match the registry: missing [${missing.join(', ')}], unknown [${unknown.join(', ')}]`,
    );
  }
}
