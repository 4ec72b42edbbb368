import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { createWorkerApp } from '@dl/apps/worker';
import { appEnv, clickEvent, deliveriesOf, enqueueEvents, eventQueue, Receiver, RunningApp, seedOrg, seedWebhook, startReceiver, TestEnv, waitFor } from '@dl/testing';

const TIMEOUT_MS = 1500;

describe('webhook delivery (worker)', () => {
  let env: TestEnv, worker: RunningApp, queue: Queue, orgId: string;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    ({ env, server: worker } = await appEnv(createWorkerApp, { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_BASE_MS: '100' }));
    queue = eventQueue(env.config);
  });

  // Each test gets its own organization, so webhooks of other tests never match its events.
  beforeEach(async () => {
    orgId = await seedOrg(env.prisma, 'Acme');
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await Promise.all(receivers.map((r) => r.close()));
    await env?.teardown();
  });

  it('signs with Standard Webhooks: the public standardwebhooks package verifies the spec body', async () => {
    const r = await receiver();
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    const event = clickEvent(orgId);
    await enqueueEvents(queue, [event]);

    await waitFor(() => r.requests.length === 1);
    const [req] = r.requests;
    expect(req.headers['webhook-id']).toBe(event.eventId);
    expect(req.headers['content-type']).toBe('application/json');
    const verified = new Webhook(hook.secret).verify(req.body, req.headers as Record<string, string>);
    expect(verified).toEqual({
      event: 'link.clicked',
      link: event.data.link,
      click: event.data.click,
    });
    expect(() =>
      new Webhook(hook.secret).verify(req.body.replace('FR', 'DE'), req.headers as Record<string, string>),
    ).toThrow('No matching signature found');

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'success' ? d : null;
    });
    expect(delivery).toMatchObject({ eventId: event.eventId, eventType: 'link.clicked', attempts: 1 });
    expect(delivery.completedAt).toBeInstanceOf(Date);
    expect(delivery.attemptsLog).toHaveLength(1);
    expect(delivery.attemptsLog[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null, responseExcerpt: 'ok' });
    const metrics = await (await fetch(`${worker.url}/metrics`)).text();
    expect(metrics).toMatch(/^webhook_attempts_total\{outcome="success"\} [1-9]/m);
  });

  it('retries after 500s with the same webhook-id and records every attempt', async () => {
    const r = await receiver((_q, res, n) => {
      res.statusCode = n < 2 ? 500 : 204;
      res.end(n < 2 ? 'boom' : '');
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    const event = clickEvent(orgId);
    await enqueueEvents(queue, [event]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'success' ? d : null;
    });
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([event.eventId, event.eventId, event.eventId]);
    for (const q of r.requests) {
      expect(() => new Webhook(hook.secret).verify(q.body, q.headers as Record<string, string>)).not.toThrow();
    }
    expect(delivery.attempts).toBe(3);
    expect(delivery.attemptsLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, 'Receiver answered 500'],
      [2, 500, 'Receiver answered 500'],
      [3, 204, null],
    ]);
    expect(delivery.attemptsLog[0].responseExcerpt).toBe('boom');
    // Backoff: each retry waits (exponential, base 100 ms in this test, with jitter).
    expect(r.requests[1].at - r.requests[0].at).toBeGreaterThanOrEqual(60);
    const webhook = await env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(webhook).toMatchObject({ isActive: true, failingSince: null });
  });

  it('gives up after 3 retries (4 attempts), flags the webhook as failing but keeps it active', async () => {
    const r = await receiver((_q, res) => {
      res.statusCode = 503;
      res.end();
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'failed' ? d : null;
    });
    expect(r.requests).toHaveLength(4);
    expect(delivery.attempts).toBe(4);
    expect(delivery.attemptsLog.map((a) => a.statusCode)).toEqual([503, 503, 503, 503]);
    const webhook = await env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(webhook.isActive).toBe(true);
    expect(webhook.failingSince).toBeInstanceOf(Date);
  });

  it('times out a receiver that hangs, logs it, and succeeds on the retry', async () => {
    const r = await receiver((_q, res, n) => {
      if (n > 0) res.end('late but fine');
      // n === 0: never answer
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'success' ? d : null;
    }, 15_000);
    expect(delivery.attemptsLog).toHaveLength(2);
    expect(delivery.attemptsLog[0]).toMatchObject({ statusCode: null, error: `Timed out after ${TIMEOUT_MS} ms` });
    expect(delivery.attemptsLog[0].durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(delivery.attemptsLog[0].durationMs).toBeLessThan(TIMEOUT_MS + 1000);
    expect(delivery.attemptsLog[1]).toMatchObject({ statusCode: 200, responseExcerpt: 'late but fine' });
  });

  it('disables the webhook on 410 Gone without retrying, and stops fanning out to it', async () => {
    const r = await receiver((_q, res) => {
      res.statusCode = 410;
      res.end('gone');
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const webhook = await waitFor(async () => {
      const w = await env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } });
      return w.isActive ? null : w;
    });
    expect(webhook.disabledReason).toBe('endpoint_gone');
    expect(webhook.disabledAt).toBeInstanceOf(Date);
    // The audit log names the system as the one that turned it off (decisions §25).
    const entry = await waitFor(() => env.prisma.auditEntry.findFirst({ where: { organizationId: orgId, action: 'webhook.updated', targetId: hook.id } }));
    expect(entry).toMatchObject({ actorType: 'system', actorId: null, targetType: 'webhook', changes: { isActive: false, disabledReason: 'endpoint_gone' } });
    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'failed' ? d : null;
    });
    expect(delivery.attemptsLog.map((a) => a.statusCode)).toEqual([410]);

    const later = clickEvent(orgId);
    await enqueueEvents(queue, [later]);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.requests).toHaveLength(1);
    expect(await env.prisma.webhookDelivery.count({ where: { eventId: later.eventId } })).toBe(0);
  });

  it('disables and flags a webhook that has failed every attempt for 3 days', async () => {
    const r = await receiver((_q, res) => {
      res.statusCode = 500;
      res.end();
    });
    const fourDaysAgo = new Date(Date.now() - 4 * 24 * 3600 * 1000);
    const hook = await seedWebhook(env.prisma, orgId, r.url, { failingSince: fourDaysAgo });
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const webhook = await waitFor(async () => {
      const w = await env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } });
      return w.isActive ? null : w;
    });
    expect(webhook).toMatchObject({ disabledReason: 'failing', failingSince: fourDaysAgo });
    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'failed' ? d : null;
    });
    // The retry finds the webhook disabled: no further request.
    await new Promise((res) => setTimeout(res, 400));
    expect(r.requests).toHaveLength(1);
    expect(delivery.attemptsLog).toHaveLength(1);
  });

  it('does not follow a 302 to an internal host: the attempt fails', async () => {
    const internal = await receiver();
    const r = await receiver((_q, res) => {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${internal.port}/admin`);
      res.end();
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'failed' ? d : null;
    });
    expect(internal.requests).toHaveLength(0);
    expect(delivery.attemptsLog[0]).toMatchObject({
      statusCode: 302,
      error: `Redirect (302 to http://127.0.0.1:${internal.port}/admin) not followed`,
    });
  });

  it('reads at most 64 KB of a 10 MB answer and keeps a 1 KB excerpt', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 'x');
    const r = await receiver((_q, res) => {
      res.statusCode = 200;
      res.setHeader('content-length', String(big.length));
      res.end(big);
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'success' ? d : null;
    });
    expect(delivery.attemptsLog[0].statusCode).toBe(200);
    expect(delivery.attemptsLog[0].responseExcerpt).toBe('x'.repeat(1024));
  });

  it('counts a connection closed by the receiver as a failed attempt', async () => {
    const r = await receiver((req, res, n) => {
      if (n === 0) req.socket.destroy();
      else res.end('ok');
    });
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'success' ? d : null;
    });
    expect(delivery.attemptsLog).toHaveLength(2);
    expect(delivery.attemptsLog[0].statusCode).toBeNull();
    expect(delivery.attemptsLog[0].error).toMatch(/^Connection closed by the receiver/);
  });

  it('delivers a replayed event once, and only to matching, active webhooks of the organization', async () => {
    const r = await receiver();
    const user = await env.prisma.user.create({
      data: { email: `u${Date.now()}@example.com`, name: 'U', passwordHash: 'x' },
    });
    const project = await env.prisma.project.create({ data: { organizationId: orgId, userId: user.id, name: 'P' } });
    const otherOrg = await seedOrg(env.prisma, 'Other');
    const all = await seedWebhook(env.prisma, orgId, `${r.url}?all`);
    const createdOnly = await seedWebhook(env.prisma, orgId, `${r.url}?created`, { events: ['link.created'] });
    const foreign = await seedWebhook(env.prisma, otherOrg, `${r.url}?foreign`);
    const inactive = await seedWebhook(env.prisma, orgId, `${r.url}?inactive`);
    await env.prisma.webhook.update({ where: { id: inactive.id }, data: { isActive: false } });
    const filtered = await seedWebhook(env.prisma, orgId, `${r.url}?project`, { projectId: project.id });

    const event = clickEvent(orgId);
    await enqueueEvents(queue, [event, event]);
    await waitFor(async () => (await env.prisma.webhookDelivery.count({ where: { eventId: event.eventId, status: 'success' } })) >= 1);
    await enqueueEvents(queue, [event]);
    await new Promise((res) => setTimeout(res, 600));

    expect(await env.prisma.webhookDelivery.count({ where: { eventId: event.eventId } })).toBe(1);
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([event.eventId]);
    for (const id of [createdOnly.id, foreign.id, inactive.id]) {
      expect(await env.prisma.webhookDelivery.count({ where: { webhookId: id } })).toBe(0);
    }
    expect(await env.prisma.webhookDelivery.count({ where: { webhookId: all.id } })).toBe(1);

    // The project-filtered webhook gets events of its project only (the one above had none).
    {
      const inProject = clickEvent(orgId, { projectId: project.id });
      await enqueueEvents(queue, [inProject]);
      await waitFor(async () => (await env.prisma.webhookDelivery.count({ where: { eventId: inProject.eventId, status: 'success' } })) === 2);
      expect(await env.prisma.webhookDelivery.count({ where: { webhookId: filtered.id } })).toBe(1);
    }
  });

  it('wraps other kinds as {event, <resource>}', async () => {
    const r = await receiver();
    const hook = await seedWebhook(env.prisma, orgId, r.url, { events: ['link.created'] });
    const link = { id: 'l1', shortCode: 'abc', originalUrl: 'https://example.com' };
    await enqueueEvents(queue, [clickEvent(orgId, { type: 'link.created', data: link })]);
    await waitFor(() => r.requests.length === 1);
    const body = new Webhook(hook.secret).verify(r.requests[0].body, r.requests[0].headers as Record<string, string>);
    expect(body).toEqual({ event: 'link.created', link });
  });
});
