import { Queue } from 'bullmq';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { Role, Tier } from '@dl/platform/db';
import { bullOptions, WebhookEventJob } from '@dl/platform/queue';
import { createRedisClient } from '@dl/platform/redis';
import { addMember, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';

export const bad = (message: string, validation?: Record<string, string>) =>
  validation ? { error: 'Bad Request', message, statusCode: 400, validation } : { error: 'Bad Request', message, statusCode: 400 };
export const notFound = (message: string) => ({ error: 'Not Found', message, statusCode: 404 });
export const conflict = (message: string) => ({ error: 'Conflict', message, statusCode: 409 });
export const forbidden = (message: string) => ({ error: 'Forbidden', message, statusCode: 403 });

export interface LinksWorld {
  env: TestEnv;
  api: RunningApp;
  a: SeededOrganization;
  b: SeededOrganization;
  keyA: string;
  keyB: string;
  viewerA: string;
  memberA: string;
  adminA: string;
  http(key?: string): {
    get(path: string): request.Test;
    post(path: string, body?: unknown): request.Test;
    put(path: string, body?: unknown): request.Test;
    del(path: string): request.Test;
  };
  close(): Promise<void>;
}

/** Two organizations (A with every role), the api listening, rate limits off unless asked. */
export async function linksWorld(opts: { tierA?: Tier; rateLimit?: boolean; env?: Record<string, string> } = {}): Promise<LinksWorld> {
  const env = await createTestEnv({ RATE_LIMIT_ENABLED: opts.rateLimit ? 'true' : 'false', ...opts.env });
  const a = await seedOrganization(env, { tier: opts.tierA ?? Tier.PRO, name: 'Org A' });
  const b = await seedOrganization(env, { tier: Tier.PRO, name: 'Org B' });
  const [viewer, member, admin] = await Promise.all([
    addMember(env, a.organization.id, Role.VIEWER),
    addMember(env, a.organization.id, Role.MEMBER),
    addMember(env, a.organization.id, Role.ADMIN),
  ]);
  const api = await startApp(createApiApp, env.config);
  const keyA = a.owner.apiKey;
  const http = (key = keyA) => {
    const auth = (t: request.Test) => t.set('Authorization', `Bearer ${key}`);
    return {
      get: (path: string) => auth(request(api.url).get(path)),
      post: (path: string, body?: unknown) => auth(request(api.url).post(path)).send(body as object),
      put: (path: string, body?: unknown) => auth(request(api.url).put(path)).send(body as object),
      del: (path: string) => auth(request(api.url).delete(path)),
    };
  };
  return {
    env,
    api,
    a,
    b,
    keyA,
    keyB: b.owner.apiKey,
    viewerA: viewer.apiKey,
    memberA: member.apiKey,
    adminA: admin.apiKey,
    http,
    close: async () => {
      await api.close();
      await env.teardown();
    },
  };
}

/** Webhook events queued for the organization (the `webhooks` queue of this test's prefix). */
export async function queuedLinkEvents(env: TestEnv, organizationId: string): Promise<WebhookEventJob[]> {
  const queue = new Queue('webhooks', bullOptions(env.config));
  try {
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    return jobs
      .filter((j) => j.name === 'webhook.event' && (j.data as WebhookEventJob).organizationId === organizationId)
      .map((j) => j.data as WebhookEventJob);
  } finally {
    await queue.close();
  }
}

/** Collects messages published on the links invalidation channel. */
export async function invalidationListener(env: TestEnv): Promise<{ messages: string[]; close(): Promise<void> }> {
  const sub = createRedisClient(env.config, { enableOfflineQueue: true, maxRetriesPerRequest: null });
  const messages: string[] = [];
  await sub.subscribe(`${env.config.REDIS_PREFIX}:links:invalidate`);
  sub.on('message', (_channel, message) => messages.push(message));
  return { messages, close: async () => void sub.disconnect() };
}

export async function waitFor(check: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
