// Test helpers for the webhook e2e specs: real receivers on loopback, seeding, waiting.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { bullOptions, Queues, WebhookEventData, WebhookEventEnvelope, WebhookEventJob, WebhookEventType } from '@dl/platform/queue';
import { generateWebhookSecret } from '@dl/webhooks';

export interface ReceivedRequest {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type ReceiverBehaviour = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Requests being handled right now (for in-flight checks). */
  open: number;
  maxOpen: number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1; `behaviour` answers the n-th request (0-based). */
export async function startReceiver(behaviour: ReceiverBehaviour = (_q, res) => res.end('ok')): Promise<Receiver> {
  const receiver: Receiver = { url: '', port: 0, requests: [], open: 0, maxOpen: 0, close: async () => undefined };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    receiver.open++;
    receiver.maxOpen = Math.max(receiver.maxOpen, receiver.open);
    let done = false;
    const finished = () => {
      if (!done) {
        done = true;
        receiver.open--;
      }
    };
    res.on('close', finished);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = receiver.requests.length;
      receiver.requests.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      behaviour(req, res, n);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return receiver;
}

export async function seedOrg(prisma: PrismaService, name = 'Org'): Promise<string> {
  const org = await prisma.organization.create({
    data: { name, slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 8)}` },
  });
  return org.id;
}

export async function seedWebhook(
  prisma: PrismaService,
  organizationId: string,
  url: string,
  opts: { events?: WebhookEventType[]; projectId?: string | null; failingSince?: Date } = {},
): Promise<{ id: string; secret: string }> {
  const secret = generateWebhookSecret();
  const hook = await prisma.webhook.create({
    data: {
      organizationId,
      url,
      secret,
      events: opts.events ?? ['link.clicked'],
      projectId: opts.projectId ?? null,
      failingSince: opts.failingSince ?? null,
    },
  });
  return { id: hook.id, secret };
}

/** A `link.clicked` event, or with `type` and `data` in `overrides` an event of that type. */
export function clickEvent<T extends WebhookEventType = 'link.clicked'>(
  organizationId: string,
  overrides: Partial<WebhookEventEnvelope> & { type?: T; data?: WebhookEventData[T] } = {},
): WebhookEventJob<T> {
  const eventId = overrides.eventId ?? randomUUID();
  const event: WebhookEventJob<'link.clicked'> = {
    eventId,
    organizationId,
    type: 'link.clicked',
    projectId: null,
    occurredAt: new Date().toISOString(),
    data: {
      event: 'link.clicked',
      link: {
        id: randomUUID(),
        shortCode: 'abc1234',
        migration_metadata: { competitorPlatform: 'branch', competitorId: 'br_1' },
      },
      click: { device: 'mobile', country: 'FR', timestamp: new Date().toISOString() },
    },
  };
  return { ...event, ...overrides } as WebhookEventJob<T>;
}

/** A producer on the test's own queue prefix, as the redirect/links apps would enqueue. */
export function eventQueue(config: AppConfig): Queue {
  return new Queue(Queues.webhooks, bullOptions(config));
}

export async function enqueueEvents(queue: Queue, events: WebhookEventJob[]): Promise<void> {
  await queue.addBulk(events.map((data) => ({ name: 'webhook.event', data })));
}

type Truthy<T> = Exclude<T, null | undefined | false | 0 | ''>;

export async function waitFor<T>(probe: () => Promise<T> | T, timeoutMs = 10_000, everyMs = 50): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function deliveriesOf(prisma: PrismaService, webhookId: string) {
  return prisma.webhookDelivery.findMany({
    where: { webhookId },
    include: { attemptsLog: { orderBy: { attempt: 'asc' } } },
    orderBy: { createdAt: 'asc' },
  });
}
