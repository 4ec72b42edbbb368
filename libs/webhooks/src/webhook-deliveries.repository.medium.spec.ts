import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, useTestEnv } from '@dl/testing';
import { AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const ok = { ok: true, gone: false, statusCode: 200, durationMs: 12, error: null, responseExcerpt: 'ok' };
const failed = { ok: false, gone: false, statusCode: 500, durationMs: 30, error: 'HTTP 500', responseExcerpt: 'boom' };
const gone = { ok: false, gone: true, statusCode: 410, durationMs: 5, error: 'HTTP 410', responseExcerpt: null };

describe(WebhookDeliveriesRepository.name, () => {
  const t = useTestEnv({}, async (env) => {
    const fx = new ClickFixtures(env.prisma);
    return { repo: new WebhookDeliveriesRepository(env.prisma), fx, acme: (await fx.organization()).id, other: (await fx.organization()).id };
  });

  const event = (organizationId: string, eventId: string, type = 'link.clicked', projectId: string | null = null) => ({
    organizationId,
    eventId,
    type,
    projectId,
    payload: { id: eventId },
  });
  const attempt = (a: Omit<AttemptRecord, 'organizationId'>, organizationId = t.acme): AttemptRecord => ({ organizationId, ...a });

  it('fans an event out to the subscribed active webhooks of its organization once; a replay gets the pending ones back', async () => {
    const project = await t.fx.project(t.acme);
    const clicked = await t.fx.webhook(t.acme, ['link.clicked']);
    const all = await t.fx.webhook(t.acme, ['link.clicked', 'link.created']);
    await t.fx.webhook(t.acme, ['link.created']);
    await t.fx.webhook(t.acme, ['link.clicked'], false);
    const filtered = (await t.env.prisma.webhook.create({ data: { organizationId: t.acme, url: 'http://127.0.0.1:9/p', events: ['link.clicked'], secret: 'whsec_eA==', projectId: project.id } })).id;
    const theirs = await t.fx.webhook(t.other, ['link.clicked']);

    const [plain, inProject, foreignEvent] = await t.repo.fanOut([event(t.acme, 'e1'), event(t.acme, 'e2', 'link.clicked', project.id), event(t.other, 'e3')]);
    expect(plain.map((d) => d.webhookId).sort()).toEqual([clicked.id, all.id].sort());
    expect(inProject.map((d) => d.webhookId).sort()).toEqual([clicked.id, all.id, filtered].sort());
    expect(foreignEvent.map((d) => d.webhookId)).toEqual([theirs.id]);

    const replay = await t.repo.fanOut([event(t.acme, 'e1')]);
    expect(replay[0].map((d) => d.id).sort()).toEqual(plain.map((d) => d.id).sort());
    expect(await t.env.prisma.webhookDelivery.count({ where: { eventId: 'e1' } })).toBe(2);
    expect(await t.repo.organizationsOf([clicked.id, theirs.id])).toEqual(new Map([[clicked.id, t.acme], [theirs.id, t.other]]));
  });

  it('logs attempts: a success completes, a 410 disables the webhook, a failure starts its failure run', async () => {
    const hook = await t.fx.webhook(t.acme, ['link.created']);
    const [[d1], [d2]] = await t.repo.fanOut([event(t.acme, 'a1', 'link.created'), event(t.acme, 'a2', 'link.created')]);
    expect(await t.repo.recordAttempts([attempt({ deliveryId: d1.id, webhookId: hook.id, attempt: 1, result: failed, final: false })])).toEqual(new Map([[hook.id, { webhookActive: true, disabledReason: null }]]));
    expect((await t.env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failingSince).toBeInstanceOf(Date);

    await t.repo.recordAttempts([attempt({ deliveryId: d1.id, webhookId: hook.id, attempt: 2, result: ok, final: true })]);
    const done = await t.env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d1.id }, include: { attemptsLog: { orderBy: { attempt: 'asc' } } } });
    expect(done).toMatchObject({ status: 'success', attempts: 2, completedAt: expect.any(Date) });
    expect(done.attemptsLog.map((a) => [a.attempt, a.statusCode, a.error, a.responseExcerpt])).toEqual([[1, 500, 'HTTP 500', 'boom'], [2, 200, null, 'ok']]);
    expect((await t.env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failingSince).toBeNull();

    expect(await t.repo.recordAttempts([attempt({ deliveryId: d2.id, webhookId: hook.id, attempt: 1, result: gone, final: true })])).toEqual(
      new Map([[hook.id, { webhookActive: false, disabledReason: 'endpoint_gone' }]]),
    );
    expect(await t.repo.target(t.acme, hook.id)).toMatchObject({ id: hook.id, isActive: false });
    expect((await t.env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d2.id } })).status).toBe('failed');
  });

  it('a failure when the failure run is 3 days old disables the webhook as failing', async () => {
    const hook = await t.fx.webhook(t.acme, ['link.updated']);
    await t.env.prisma.webhook.update({ where: { id: hook.id }, data: { failingSince: new Date(Date.now() - 3 * 86_400_000 - 60_000) } });
    const [[d]] = await t.repo.fanOut([event(t.acme, 'f1', 'link.updated')]);
    expect(await t.repo.recordAttempts([attempt({ deliveryId: d.id, webhookId: hook.id, attempt: 1, result: failed, final: false })])).toEqual(
      new Map([[hook.id, { webhookActive: false, disabledReason: 'failing' }]]),
    );
  });

  it("another organization's webhook and delivery answer as missing: no target, no attempt logged, nothing abandoned", async () => {
    const theirs = await t.fx.webhook(t.other, ['link.deleted']);
    const [[d]] = await t.repo.fanOut([event(t.other, 'x1', 'link.deleted')]);
    expect(await t.repo.target(t.acme, theirs.id)).toBeNull();
    expect(await t.repo.target(t.other, theirs.id)).toEqual({ id: theirs.id, url: 'http://127.0.0.1:9/hook', secret: 'whsec_dGVzdA==', isActive: true });
    expect(await t.repo.recordAttempts([attempt({ deliveryId: d.id, webhookId: theirs.id, attempt: 1, result: gone, final: true })])).toEqual(new Map());
    await t.repo.abandon(t.acme, d.id);
    expect(await t.env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d.id }, include: { attemptsLog: true } })).toMatchObject({ status: 'pending', attempts: 0, attemptsLog: [] });
    expect(await t.repo.target(t.other, theirs.id)).toMatchObject({ isActive: true });
    await t.repo.abandon(t.other, d.id);
    expect((await t.env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } })).status).toBe('failed');
  });

  it('an event whose organization id is not a UUID is refused by the database (22P02), not matched', async () => {
    expect(sqlState(await rejectionOf(t.repo.fanOut([event('not-a-uuid', 'bad')])))).toBe('22P02');
  });

  it('a suspended organization fans out nothing and its pending deliveries have no target (decisions §22)', async () => {
    const org = (await t.fx.organization()).id;
    const hook = await t.fx.webhook(org, ['link.clicked']);
    const [before] = await t.repo.fanOut([event(org, 's1')]);
    expect(before).toHaveLength(1);
    await t.env.prisma.organization.update({ where: { id: org }, data: { suspendedAt: new Date() } });
    expect(await t.repo.fanOut([event(org, 's2')])).toEqual([[]]);
    expect(await t.repo.target(org, hook.id)).toBeNull();
    await t.env.prisma.organization.update({ where: { id: org }, data: { suspendedAt: null } });
    expect(await t.repo.target(org, hook.id)).toMatchObject({ id: hook.id });
  });
});
