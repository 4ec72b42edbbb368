import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, repositoryEnv, SeededOrganization, TestEnv } from '@dl/testing';
import { WebhooksRepository } from './webhooks.repository';

describe(WebhooksRepository.name, () => {
  let env: TestEnv, repo: WebhooksRepository, acme: SeededOrganization, other: SeededOrganization;
  const hook = (url = 'https://hooks.example.com/a') => ({ url, events: ['link.created'], projectId: null, secret: 'whsec_dGVzdA==' });

  beforeAll(async () => ({ env, repo, acme, other } = await repositoryEnv((prisma) => new WebhooksRepository(prisma))));
  afterAll(() => env?.teardown());

  it('creates without exposing the secret, lists newest first, disables by hand once and re-enables', async () => {
    const org = acme.organization.id;
    const project = await new ClickFixtures(env.prisma).useOwner(org, acme.owner.user.id, acme.template.id).project(org);
    expect(await repo.projectExists(org, project.id)).toBe(true);
    const first = await repo.create(org, hook());
    const second = await repo.create(org, { ...hook('https://hooks.example.com/b'), events: ['link.clicked', 'link.updated'], projectId: project.id });
    expect(Object.keys(second).sort()).toEqual(['createdAt', 'disabledAt', 'disabledReason', 'events', 'failingSince', 'id', 'isActive', 'projectId', 'updatedAt', 'url']);
    expect(second).toMatchObject({ url: 'https://hooks.example.com/b', events: ['link.clicked', 'link.updated'], projectId: project.id, isActive: true, disabledAt: null });
    expect(await repo.count(org)).toBe(2);
    expect((await repo.list(org)).map((w) => w.id)).toEqual([second.id, first.id]);

    const disabled = await repo.update(org, first.id, { isActive: false });
    expect(disabled).toMatchObject({ isActive: false, disabledReason: 'manual', disabledAt: expect.any(Date) });
    // Disabling again (with another change) keeps the first date and reason.
    const again = await repo.update(org, first.id, { isActive: false, url: 'https://hooks.example.com/c' });
    expect(again).toMatchObject({ isActive: false, disabledReason: 'manual', disabledAt: disabled!.disabledAt, url: 'https://hooks.example.com/c' });
    expect(await repo.update(org, first.id, { isActive: true })).toMatchObject({ isActive: true, disabledAt: null, disabledReason: null, failingSince: null });

    const delivery = await repo.createDelivery(org, { webhookId: first.id, eventId: 'evt_1', eventType: 'link.created', payload: { a: 1 } });
    expect(delivery).toMatchObject({ webhookId: first.id, eventId: 'evt_1', status: 'pending', attempts: 0, payload: { a: 1 }, attemptsLog: [] });
    expect((await repo.listDeliveries(org, first.id, { limit: 10 })).map((d) => d.eventId)).toEqual(['evt_1']);
    expect(await repo.listDeliveries(org, first.id, { limit: 10, status: 'success' })).toEqual([]);
    expect(await repo.delete(org, second.id)).toBe(true);
    expect(await repo.find(org, second.id)).toBeNull();
  });

  it("another organization's webhook answers as missing and is left untouched", async () => {
    const mine = await repo.create(acme.organization.id, hook('https://hooks.example.com/mine'));
    const foreign = other.organization.id;
    expect(await repo.find(foreign, mine.id)).toBeNull();
    expect(await repo.update(foreign, mine.id, { url: 'https://evil.example.com/', isActive: false })).toBeNull();
    expect(await repo.delete(foreign, mine.id)).toBe(false);
    expect(await repo.list(foreign)).toEqual([]);
    expect(await repo.listDeliveries(foreign, mine.id, { limit: 10 })).toEqual([]);
    expect(await repo.projectExists(foreign, (await new ClickFixtures(env.prisma).useOwner(acme.organization.id, acme.owner.user.id, acme.template.id).project(acme.organization.id)).id)).toBe(false);
    expect(await repo.find(acme.organization.id, mine.id)).toMatchObject({ url: 'https://hooks.example.com/mine', isActive: true });
  });

  it('an event delivered twice to one webhook is refused by the unique (webhook, event) key (23505)', async () => {
    const org = acme.organization.id;
    const w = await repo.create(org, hook('https://hooks.example.com/once'));
    const event = { webhookId: w.id, eventId: 'evt_once', eventType: 'link.created', payload: {} };
    await repo.createDelivery(org, event);
    expect(sqlState(await rejectionOf(repo.createDelivery(org, event)))).toBe('23505');
  });
});
