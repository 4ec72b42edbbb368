import { WebhookEvent, WebhookEventType, WebhookEventTypes } from '@dl/platform/queue';

export { WebhookEventTypes };
export type { WebhookEventType };

/** The kind sent by `POST /api/webhooks/:id/test` (not subscribable). */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Name of the resource object each kind carries next to `event`. */
const RESOURCE: Record<Exclude<WebhookEventType, 'link.clicked'>, string> = {
  'link.created': 'link',
  'link.updated': 'link',
  'link.deleted': 'link',
  'install.attributed': 'install',
  'report.generated': 'report',
  // decisions §23: `{event, data: {customer, lead | sale, linkId}}`.
  'lead.created': 'data',
  'sale.created': 'data',
  // decisions §22: `{event, data: {linkId, shortCode, reason}}`.
  'link.flagged': 'data',
};

/**
 * The JSON body a receiver gets: `{event, <resource>: {...}}`. `link.clicked` is the spec's body
 * as the producer built it (`{event, link, click}`); the other kinds wrap the producer's data
 * under the resource's name, e.g. `{event: 'link.created', link: {...}}`.
 */
export function webhookBody(event: WebhookEvent): Record<string, unknown> {
  if (event.type === 'link.clicked') {
    const { event: _event, ...rest } = event.data;
    return { event: event.type, ...rest };
  }
  return { event: event.type, [RESOURCE[event.type]]: event.data };
}

export function testBody(webhookId: string, at: Date): Record<string, unknown> {
  return {
    event: TEST_EVENT_TYPE,
    webhook: { id: webhookId },
    message: 'Test delivery: your endpoint is reachable and can verify signatures.',
    timestamp: at.toISOString(),
  };
}
