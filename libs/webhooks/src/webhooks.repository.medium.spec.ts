import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, useRepository } from '@dl/testing';
import { WebhooksRepository } from './webhooks.repository';

describe(WebhooksRepository.name, () => {
  const t = useRepository((prisma) => new WebhooksRepository(prisma));
  const hook = (url = 'https://hooks.example.com/a') => ({ url, events: ['link.created'], projectId: null, secret: 'whsec_dGVzdA==' });

  it('creates without exposing the secret, lists newest first, disables by hand once and re-enables', async () => {
    const org = t.acme.organization.id;
    const project = await new ClickFixtures(t.env.prisma).useOwner(org, t.acme.owner.user.id, t.acme.template.id).project(org);
    expect(await t.repo.projectExists(org, project.id)).toBe(true);
    const first = await t.repo.create(org, hook());
    const second = await t.repo.create(org, { ...hook('https://hooks.example.com/b'), events: ['link.clicked', 'link.updated'], projectId: project.id });
    expect(Object.keys(second).sort()).toEqual(['createdAt', 'disabledAt', 'disabledReason', 'events', 'failingSince', 'id', 'isActive', 'projectId', 'updatedAt', 'url']);
    expect(second).toMatchObject({ url: 'https://hooks.example.com/b', events: ['link.clicked', 'link.updated'], projectId: project.id, isActive: true, disabledAt: null });
    expect(await t.repo.count(org)).toBe(2);
    expect((await t.repo.list(org)).map((w) => w.id)).toEqual([second.id, first.id]);

    const disabled = await t.repo.update(org, first.id, { isActive: false });
    expect(disabled).toMatchObject({ isActive: false, disabledReason: 'manual', disabledAt: expect.any(Date) });
    // Disabling again (with another change) keeps the first date and reason.
    const again = await t.repo.update(org, first.id, { isActive: false, url: 'https://hooks.example.com/c' });
    expect(again).toMatchObject({ isActive: false, disabledReason: 'manual', disabledAt: disabled!.disabledAt, url: 'https://hooks.example.com/c' });
    expect(await t.repo.update(org, first.id, { isActive: true })).toMatchObject({ isActive: true, disabledAt: null, disabledReason: null, failingSince: null });

    const delivery = await t.repo.createDelivery(org, { webhookId: first.id, eventId: 'evt_1', eventType: 'link.created', payload: { a: 1 } });
    expect(delivery).toMatchObject({ webhookId: first.id, eventId: 'evt_1', status: 'pending', attempts: 0, payload: { a: 1 }, attemptsLog: [] });
    expect((await t.repo.listDeliveries(org, first.id, { limit: 10 })).map((d) => d.eventId)).toEqual(['evt_1']);
    expect(await t.repo.listDeliveries(org, first.id, { limit: 10, status: 'success' })).toEqual([]);
    expect(await t.repo.delete(org, second.id)).toBe(true);
    expect(await t.repo.find(org, second.id)).toBeNull();
  });

  it("another organization's webhook answers as missing and is left untouched", async () => {
    const mine = await t.repo.create(t.acme.organization.id, hook('https://hooks.example.com/mine'));
    const foreign = t.other.organization.id;
    expect(await t.repo.find(foreign, mine.id)).toBeNull();
    expect(await t.repo.update(foreign, mine.id, { url: 'https://evil.example.com/', isActive: false })).toBeNull();
    expect(await t.repo.delete(foreign, mine.id)).toBe(false);
    expect(await t.repo.list(foreign)).toEqual([]);
    expect(await t.repo.listDeliveries(foreign, mine.id, { limit: 10 })).toEqual([]);
    expect(await t.repo.projectExists(foreign, (await new ClickFixtures(t.env.prisma).useOwner(t.acme.organization.id, t.acme.owner.user.id, t.acme.template.id).project(t.acme.organization.id)).id)).toBe(false);
    expect(await t.repo.find(t.acme.organization.id, mine.id)).toMatchObject({ url: 'https://hooks.example.com/mine', isActive: true });
  });

  it('an event delivered twice to one webhook is refused by the unique (webhook, event) key (23505)', async () => {
    const org = t.acme.organization.id;
    const w = await t.repo.create(org, hook('https://hooks.example.com/once'));
    const event = { webhookId: w.id, eventId: 'evt_once', eventType: 'link.created', payload: {} };
    await t.repo.createDelivery(org, event);
    expect(sqlState(await rejectionOf(t.repo.createDelivery(org, event)))).toBe('23505');
  });
});
