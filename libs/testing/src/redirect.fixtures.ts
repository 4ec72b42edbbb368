import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { ClickCapturedJob, unpackClickBatch } from '@dl/platform/click-codec';
import { AppConfig } from '@dl/platform/config';
import { Prisma, PrismaService } from '@dl/platform/db';
import { bullOptions } from '@dl/platform/queue';
import { createRedisClient } from '@dl/platform/redis';
import { RedirectLinkSnapshot, toRedirectSnapshot } from '@dl/redirect';

export const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  twitterbot: 'Twitterbot/1.0',
} as const;

export interface SeededOrg {
  organizationId: string;
  userId: string;
  templateId: string;
}

/** An organization with an owner and a template (what a link row needs). */
export async function seedRedirectOrg(prisma: PrismaService): Promise<SeededOrg> {
  const tag = randomBytes(4).toString('hex');
  const org = await prisma.organization.create({ data: { name: `Org ${tag}`, slug: `org-${tag}` } });
  const user = await prisma.user.create({
    data: { email: `owner-${tag}@example.com`, name: 'Owner', passwordHash: 'x' },
  });
  const template = await prisma.template.create({
    data: { organizationId: org.id, name: 'Default', slug: `default-${tag}` },
  });
  return { organizationId: org.id, userId: user.id, templateId: template.id };
}

export function randomCode(): string {
  return `t${randomBytes(5).toString('hex')}`;
}

/** Inserts a link row directly (the links API is another issue's). */
export async function seedLink(
  prisma: PrismaService,
  org: SeededOrg,
  data: Partial<Prisma.LinkUncheckedCreateInput> = {},
): Promise<{ id: string; shortCode: string }> {
  return prisma.link.create({
    data: {
      organizationId: org.organizationId,
      userId: org.userId,
      templateId: org.templateId,
      shortCode: randomCode(),
      originalUrl: 'https://example.com/landing',
      ...data,
    },
    select: { id: true, shortCode: true },
  });
}

/** What the links service does after every change: announce the code on the invalidation channel. */
export async function publishInvalidation(config: AppConfig, shortCode: string): Promise<void> {
  const redis = createRedisClient(config, { enableOfflineQueue: true });
  try {
    await redis.publish(`${config.REDIS_PREFIX}:links:invalidate`, shortCode);
  } finally {
    redis.disconnect();
  }
}

/** The `clicks` queue of a test prefix, read-only (the consumer is the worker's). */
export function clicksQueue(config: AppConfig): Queue {
  const queue = new Queue('clicks', bullOptions(config));
  queue.on('error', () => undefined);
  return queue;
}

/** Every click queued, flattened out of the edge's `click.batch` jobs (and any single `click.captured`). */
export async function queuedClicks(queue: Queue): Promise<ClickCapturedJob[]> {
  return (await queuedClickJobs(queue)).flatMap((j) => j.clicks);
}

/** The queued click jobs with the clicks each carries. */
export async function queuedClickJobs(queue: Queue): Promise<Array<{ id: string; name: string; clicks: ClickCapturedJob[] }>> {
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
  return jobs.flatMap((j) => {
    if (j.name === 'click.batch') return [{ id: j.id!, name: j.name, clicks: (unpackClickBatch(j.data) ?? []) as ClickCapturedJob[] }];
    if (j.name === 'click.captured') return [{ id: j.id!, name: j.name, clicks: [j.data as ClickCapturedJob] }];
    return [];
  });
}

/** Polls until `predicate` holds (or fails after `timeoutMs`). */
export async function eventuallyMatches<T>(fn: () => Promise<T>, predicate: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (predicate(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A link as the edge caches it, read from a row with every optional column unset: `over` sets what a test needs. */
export const snapshotOf = (over: Partial<RedirectLinkSnapshot> = {}): RedirectLinkSnapshot => ({
  ...toRedirectSnapshot({ id: 'l1', organization_id: 'o1', short_code: 'abc1234', is_active: true, original_url: 'https://example.com/o' }),
  ...over,
});

/**
 * A redirect's Location without the `dl_click=<click id>` the web destinations of a paid plan (or
 * a pixel site's organization) end with (decisions §23), for tests about the rest of it.
 */
export function withoutClickId<T extends string | undefined>(location: T): T {
  return location?.replace(/[?&]dl_click=[0-9a-f-]{36}(?=#|$)/, '') as T;
}
