import { sqlState } from '@dl/platform/db';
import { ClickFixtures, createTestEnv, rejectionOf, TestEnv } from '@dl/testing';
import { AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const ok = { ok: true, gone: false, statusCode: 200, durationMs: 12, error: null, responseExcerpt: 'ok' };
const failed = { ok: false, gone: false, statusCode: 500, durationMs: 30, error: 'HTTP 500', responseExcerpt: 'boom' };
const gone = { ok: false, gone: true, statusCode: 410, durationMs: 5, error: 'HTTP 410', responseExcerpt: null };

describe(WebhookDeliveriesRepository.name, () => {
  let env: TestEnv;
  let repo: WebhookDeliveriesRepository;
  let fx: ClickFixtures;
  let acme: string;
  let other: string;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new WebhookDeliveriesRepository(env.prisma);
    fx = new ClickFixtures(env.prisma);
    acme = (await fx.organization()).id;
    other = (await fx.organization()).id;
  });
  afterAll(() => env?.teardown());

  const event = (organizationId: string, eventId: string, type = 'link.clicked', projectId: string | null = null) => ({
    organizationId,
    eventId,
    type,
    projectId,
    payload: { id: eventId },
  });
  const attempt = (a: Omit<AttemptRecord, 'organizationId'>, organizationId = acme): AttemptRecord => ({ organizationId, ...a });

  it('fans an event out to the subscribed active webhooks of its organization once; a replay gets the pending ones back', async () => {
    const project = await fx.project(acme);
    const clicked = await fx.webhook(acme, ['link.clicked']);
    const all = await fx.webhook(acme, ['link.clicked', 'link.created']);
    await fx.webhook(acme, ['link.created']);
    await fx.webhook(acme, ['link.clicked'], false);
    const filtered = (await env.prisma.webhook.create({ data: { organizationId: acme, url: 'http://127.0.0.1:9/p', events: ['link.clicked'], secret: 'whsec_eA==', projectId: project.id } })).id;
    const theirs = await fx.webhook(other, ['link.clicked']);

    const [plain, inProject, foreignEvent] = await repo.fanOut([event(acme, 'e1'), event(acme, 'e2', 'link.clicked', project.id), event(other, 'e3')]);
    expect(plain.map((d) => d.webhookId).sort()).toEqual([clicked.id, all.id].sort());
    expect(inProject.map((d) => d.webhookId).sort()).toEqual([clicked.id, all.id, filtered].sort());
    expect(foreignEvent.map((d) => d.webhookId)).toEqual([theirs.id]);

    const replay = await repo.fanOut([event(acme, 'e1')]);
    expect(replay[0].map((d) => d.id).sort()).toEqual(plain.map((d) => d.id).sort());
    expect(await env.prisma.webhookDelivery.count({ where: { eventId: 'e1' } })).toBe(2);
    expect(await repo.organizationsOf([clicked.id, theirs.id])).toEqual(new Map([[clicked.id, acme], [theirs.id, other]]));
  });

  it('logs attempts: a success completes, a 410 disables the webhook, a failure starts its failure run', async () => {
    const hook = await fx.webhook(acme, ['link.created']);
    const [[d1], [d2]] = await repo.fanOut([event(acme, 'a1', 'link.created'), event(acme, 'a2', 'link.created')]);
    expect(await repo.recordAttempts([attempt({ deliveryId: d1.id, webhookId: hook.id, attempt: 1, result: failed, final: false })])).toEqual(new Map([[hook.id, { webhookActive: true, disabledReason: null }]]));
    expect((await env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failingSince).toBeInstanceOf(Date);

    await repo.recordAttempts([attempt({ deliveryId: d1.id, webhookId: hook.id, attempt: 2, result: ok, final: true })]);
    const done = await env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d1.id }, include: { attemptsLog: { orderBy: { attempt: 'asc' } } } });
    expect(done).toMatchObject({ status: 'success', attempts: 2, completedAt: expect.any(Date) });
    expect(done.attemptsLog.map((a) => [a.attempt, a.statusCode, a.error, a.responseExcerpt])).toEqual([[1, 500, 'HTTP 500', 'boom'], [2, 200, null, 'ok']]);
    expect((await env.prisma.webhook.findUniqueOrThrow({ where: { id: hook.id } })).failingSince).toBeNull();

    expect(await repo.recordAttempts([attempt({ deliveryId: d2.id, webhookId: hook.id, attempt: 1, result: gone, final: true })])).toEqual(
      new Map([[hook.id, { webhookActive: false, disabledReason: 'endpoint_gone' }]]),
    );
    expect(await repo.target(acme, hook.id)).toMatchObject({ id: hook.id, isActive: false });
    expect((await env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d2.id } })).status).toBe('failed');
  });

  it('a failure when the failure run is 3 days old disables the webhook as failing', async () => {
    const hook = await fx.webhook(acme, ['link.updated']);
    await env.prisma.webhook.update({ where: { id: hook.id }, data: { failingSince: new Date(Date.now() - 3 * 86_400_000 - 60_000) } });
    const [[d]] = await repo.fanOut([event(acme, 'f1', 'link.updated')]);
    expect(await repo.recordAttempts([attempt({ deliveryId: d.id, webhookId: hook.id, attempt: 1, result: failed, final: false })])).toEqual(
      new Map([[hook.id, { webhookActive: false, disabledReason: 'failing' }]]),
    );
  });

  it("another organization's webhook and delivery answer as missing: no target, no attempt logged, nothing abandoned", async () => {
    const theirs = await fx.webhook(other, ['link.deleted']);
    const [[d]] = await repo.fanOut([event(other, 'x1', 'link.deleted')]);
    expect(await repo.target(acme, theirs.id)).toBeNull();
    expect(await repo.target(other, theirs.id)).toEqual({ id: theirs.id, url: 'http://127.0.0.1:9/hook', secret: 'whsec_dGVzdA==', isActive: true });
    expect(await repo.recordAttempts([attempt({ deliveryId: d.id, webhookId: theirs.id, attempt: 1, result: gone, final: true })])).toEqual(new Map());
    await repo.abandon(acme, d.id);
    expect(await env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d.id }, include: { attemptsLog: true } })).toMatchObject({ status: 'pending', attempts: 0, attemptsLog: [] });
    expect(await repo.target(other, theirs.id)).toMatchObject({ isActive: true });
    await repo.abandon(other, d.id);
    expect((await env.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } })).status).toBe('failed');
  });

  it('an event whose organization id is not a UUID is refused by the database (22P02), not matched', async () => {
    expect(sqlState(await rejectionOf(repo.fanOut([event('not-a-uuid', 'bad')])))).toBe('22P02');
  });

  it('a suspended organization fans out nothing and its pending deliveries have no target (decisions §22)', async () => {
    const org = (await fx.organization()).id;
    const hook = await fx.webhook(org, ['link.clicked']);
    const [before] = await repo.fanOut([event(org, 's1')]);
    expect(before).toHaveLength(1);
    await env.prisma.organization.update({ where: { id: org }, data: { suspendedAt: new Date() } });
    expect(await repo.fanOut([event(org, 's2')])).toEqual([[]]);
    expect(await repo.target(org, hook.id)).toBeNull();
    await env.prisma.organization.update({ where: { id: org }, data: { suspendedAt: null } });
    expect(await repo.target(org, hook.id)).toMatchObject({ id: hook.id });
  });
});
