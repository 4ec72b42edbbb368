import { DomainStatus, sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, repositoryEnv, SeededOrganization, TestEnv } from '@dl/testing';
import { DomainsRepository } from './domains.repository';

const TOKEN = '0123456789abcdef0123456789abcdef';

describe(DomainsRepository.name, () => {
  let env: TestEnv, repo: DomainsRepository, acme: SeededOrganization, other: SeededOrganization;
  beforeAll(async () => ({ env, repo, acme, other } = await repositoryEnv((prisma) => new DomainsRepository(prisma))));
  afterAll(() => env?.teardown());

  const create = async (organizationId: string, domain: string) => {
    const res = await repo.create(organizationId, domain, TOKEN, null);
    if (res.kind !== 'created') throw new Error(`arranging ${domain}: ${res.kind}`);
    return res.record;
  };
  const verify = (organizationId: string, id: string) =>
    repo.recordCheck(organizationId, id, { status: DomainStatus.verified, verificationError: null, failedChecks: 0, verifiedAt: new Date(), lastCheckedAt: new Date() });

  it('creates pending domains, makes a verified one the default (one at a time) and deletes an unused one', async () => {
    const org = acme.organization.id;
    const a = await create(org, 'go.acme.test');
    expect(a).toMatchObject({ organizationId: org, domain: 'go.acme.test', status: 'pending', verificationToken: TOKEN, isDefault: null, failedChecks: 0, verifiedAt: null });
    const b = await create(org, 'links.acme.test');
    expect((await repo.list(org)).map((d) => d.domain)).toEqual(['links.acme.test', 'go.acme.test']);
    expect(await repo.findByName(org, 'go.acme.test')).toMatchObject({ id: a.id });

    expect(await repo.update(org, a.id, { isDefault: true })).toEqual({ kind: 'not-verified' });
    await verify(org, a.id);
    await verify(org, b.id);
    expect(await repo.update(org, a.id, { isDefault: true, notFoundUrl: 'https://acme.test/404' })).toMatchObject({ kind: 'updated', record: { isDefault: true, notFoundUrl: 'https://acme.test/404' } });
    expect(await repo.update(org, b.id, { isDefault: true })).toMatchObject({ kind: 'updated', record: { id: b.id, isDefault: true } });
    expect((await repo.findDefault(org))?.id).toBe(b.id);
    expect((await repo.find(org, a.id))?.isDefault).toBeNull();

    expect(await repo.delete(org, a.id)).toMatchObject({ kind: 'deleted', record: { id: a.id, domain: 'go.acme.test' } });
    expect(await repo.find(org, a.id)).toBeNull();
  });

  it('counts the plan limit and refuses a name another organization holds', async () => {
    expect(await repo.create(other.organization.id, 'limit.other.test', TOKEN, 1)).toMatchObject({ kind: 'created' });
    expect(await repo.create(other.organization.id, 'second.other.test', TOKEN, 1)).toEqual({ kind: 'limit' });
    expect(await repo.create(acme.organization.id, 'limit.other.test', TOKEN, null)).toEqual({ kind: 'taken' });
  });

  it('a domain with links on it is not deleted', async () => {
    const org = acme.organization.id;
    const d = await create(org, 'busy.acme.test');
    const link = await new ClickFixtures(env.prisma).useOwner(org, acme.owner.user.id, acme.template.id).link(org);
    await env.prisma.link.update({ where: { id: link.id }, data: { domainId: d.id, domainName: d.domain } });
    expect(await repo.delete(org, d.id)).toEqual({ kind: 'in-use', links: 1 });
    expect(await repo.find(org, d.id)).toMatchObject({ domain: 'busy.acme.test' });
  });

  it("another organization's domain answers as missing and is left untouched", async () => {
    const mine = await create(acme.organization.id, 'mine.acme.test');
    const foreign = other.organization.id;
    expect(await repo.find(foreign, mine.id)).toBeNull();
    expect(await repo.findByName(foreign, 'mine.acme.test')).toBeNull();
    expect(await repo.update(foreign, mine.id, { notFoundUrl: 'https://evil.test/' })).toEqual({ kind: 'missing' });
    expect(await repo.delete(foreign, mine.id)).toEqual({ kind: 'missing' });
    expect(await repo.find(acme.organization.id, mine.id)).toMatchObject({ notFoundUrl: null });
    expect(await repo.find(acme.organization.id, 'not-a-uuid')).toBeNull();
  });

  it('finds the domains due for a DNS re-check: never-checked pending ones first, then stale verified ones', async () => {
    const now = new Date();
    const stale = await create(other.organization.id, 'stale.other.test');
    await repo.recordCheck(other.organization.id, stale.id, { status: DomainStatus.verified, verificationError: null, failedChecks: 0, verifiedAt: now, lastCheckedAt: new Date(now.getTime() - 2 * 86_400_000) });
    const due = await repo.dueForCheck(now, { pendingFor: 7 * 86_400_000, pendingEvery: 60_000, verifiedEvery: 86_400_000, limit: 100 });
    // links.acme.test was verified a moment ago: not due.
    expect(due.slice(0, -1).map((d) => d.domain).sort()).toEqual(['busy.acme.test', 'limit.other.test', 'mine.acme.test']);
    expect(due.at(-1)?.domain).toBe('stale.other.test');
    expect(await repo.dueForCheck(now, { pendingFor: 7 * 86_400_000, pendingEvery: 60_000, verifiedEvery: 86_400_000, limit: 1 })).toHaveLength(1);
  });

  it('a check outcome for a domain of another organization is refused (P2025: no such row)', async () => {
    const mine = await create(acme.organization.id, 'checked.acme.test');
    const err = await rejectionOf(verify(other.organization.id, mine.id));
    expect((err as { code?: string }).code).toBe('P2025');
    expect(sqlState(err)).toBeNull();
    expect((await repo.find(acme.organization.id, mine.id))?.status).toBe('pending');
  });
});
