import { DomainStatus, sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, useRepository } from '@dl/testing';
import { DomainsRepository } from './domains.repository';

const TOKEN = '0123456789abcdef0123456789abcdef';

describe(DomainsRepository.name, () => {
  const t = useRepository((prisma) => new DomainsRepository(prisma));

  const create = async (organizationId: string, domain: string) => {
    const res = await t.repo.create(organizationId, domain, TOKEN, null);
    if (res.kind !== 'created') throw new Error(`arranging ${domain}: ${res.kind}`);
    return res.record;
  };
  const verify = (organizationId: string, id: string) =>
    t.repo.recordCheck(organizationId, id, { status: DomainStatus.verified, verificationError: null, failedChecks: 0, verifiedAt: new Date(), lastCheckedAt: new Date() });

  it('creates pending domains, makes a verified one the default (one at a time) and deletes an unused one', async () => {
    const org = t.acme.organization.id;
    const a = await create(org, 'go.acme.test');
    expect(a).toMatchObject({ organizationId: org, domain: 'go.acme.test', status: 'pending', verificationToken: TOKEN, isDefault: null, failedChecks: 0, verifiedAt: null });
    const b = await create(org, 'links.acme.test');
    expect((await t.repo.list(org)).map((d) => d.domain)).toEqual(['links.acme.test', 'go.acme.test']);
    expect(await t.repo.findByName(org, 'go.acme.test')).toMatchObject({ id: a.id });

    expect(await t.repo.update(org, a.id, { isDefault: true })).toEqual({ kind: 'not-verified' });
    await verify(org, a.id);
    await verify(org, b.id);
    expect(await t.repo.update(org, a.id, { isDefault: true, notFoundUrl: 'https://acme.test/404' })).toMatchObject({ kind: 'updated', record: { isDefault: true, notFoundUrl: 'https://acme.test/404' } });
    expect(await t.repo.update(org, b.id, { isDefault: true })).toMatchObject({ kind: 'updated', record: { id: b.id, isDefault: true } });
    expect((await t.repo.findDefault(org))?.id).toBe(b.id);
    expect((await t.repo.find(org, a.id))?.isDefault).toBeNull();

    expect(await t.repo.delete(org, a.id)).toMatchObject({ kind: 'deleted', record: { id: a.id, domain: 'go.acme.test' } });
    expect(await t.repo.find(org, a.id)).toBeNull();
  });

  it('counts the plan limit and refuses a name this organization has or another organization holds', async () => {
    const held = await t.repo.create(t.other.organization.id, 'limit.other.test', TOKEN, 1);
    expect(held).toMatchObject({ kind: 'created' });
    expect(await t.repo.create(t.other.organization.id, 'second.other.test', TOKEN, 1)).toEqual({ kind: 'limit' });
    expect(await t.repo.create(t.other.organization.id, 'limit.other.test', TOKEN, null)).toEqual({ kind: 'taken' });
    // Another organization's pending claim does not block (decisions §22); its verified name does.
    const pending = await t.repo.create(t.acme.organization.id, 'limit.other.test', TOKEN, null);
    expect(pending).toMatchObject({ kind: 'created' });
    if (held.kind !== 'created' || pending.kind !== 'created') throw new Error('arranging');
    expect(await verify(t.other.organization.id, held.record.id)).toMatchObject({ kind: 'recorded', removedClaims: 1, record: { status: 'verified', heldName: 'limit.other.test' } });
    expect(await t.repo.find(t.acme.organization.id, pending.record.id)).toBeNull();
    expect(await t.repo.create(t.acme.organization.id, 'limit.other.test', TOKEN, null)).toEqual({ kind: 'taken' });
  });

  it('two organizations verifying one name at once: exactly one wins, the other claim is removed', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `race${round}.claims.test`;
      const mine = await create(t.acme.organization.id, name);
      const theirs = await create(t.other.organization.id, name);
      const results = await Promise.all([verify(t.acme.organization.id, mine.id), verify(t.other.organization.id, theirs.id)]);
      // The second finds its claim already removed by the first ('missing'; 'lost' when it was still there).
      expect(results.filter((r) => r.kind === 'recorded')).toHaveLength(1);
      expect(results.filter((r) => r.kind !== 'recorded').map((r) => r.kind)).toEqual([expect.stringMatching(/^(missing|lost)$/)]);
      const rows = await t.env.prisma.domain.findMany({ where: { domain: name } });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'verified', heldName: name });
      const winner = results[0].kind === 'recorded' ? mine : theirs;
      expect(rows[0].id).toBe(winner.id);
    }
  });

  it('a written claim the index refuses (no name lock) still loses cleanly', async () => {
    const first = await create(t.acme.organization.id, 'index.claims.test');
    const second = await create(t.other.organization.id, 'index.claims.test');
    await t.env.prisma.domain.update({ where: { id: first.id }, data: { status: 'verified', heldName: 'index.claims.test' } });
    expect(sqlState(await rejectionOf(t.env.prisma.domain.update({ where: { id: second.id }, data: { status: 'verified', heldName: 'index.claims.test' } })))).toBe('23505');
    expect(await verify(t.other.organization.id, second.id)).toEqual({ kind: 'lost' });
    expect(await t.env.prisma.domain.count({ where: { domain: 'index.claims.test' } })).toBe(1);
    await t.env.prisma.domain.delete({ where: { id: first.id } });
  });

  it('held_name follows status for any writer (a trigger): set while verified or invalid, cleared while pending', async () => {
    const token = '0'.repeat(32);
    const written = await t.env.prisma.domain.create({ data: { organizationId: t.acme.organization.id, domain: 'fixture.claims.test', status: 'verified', verificationToken: token } });
    expect(written.heldName).toBe('fixture.claims.test');
    const rival = t.env.prisma.domain.create({ data: { organizationId: t.other.organization.id, domain: 'fixture.claims.test', status: 'invalid', verificationToken: token } });
    expect(sqlState(await rejectionOf(rival))).toBe('23505');
    const pending = await t.env.prisma.domain.create({ data: { organizationId: t.other.organization.id, domain: 'fixture.claims.test', heldName: 'fixture.claims.test', verificationToken: token } });
    expect(pending.heldName).toBeNull();
    expect((await t.env.prisma.domain.update({ where: { id: written.id }, data: { status: 'invalid' } })).heldName).toBe('fixture.claims.test');
    await t.env.prisma.domain.deleteMany({ where: { domain: 'fixture.claims.test' } });
  });

  it('removes pending claims older than the cutoff, never verified ones', async () => {
    const old = await create(t.acme.organization.id, 'old.claims.test');
    const kept = await create(t.acme.organization.id, 'kept.claims.test');
    const verifiedOld = await create(t.acme.organization.id, 'verified-old.claims.test');
    await verify(t.acme.organization.id, verifiedOld.id);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    await t.env.prisma.domain.updateMany({ where: { id: { in: [old.id, verifiedOld.id] } }, data: { createdAt: eightDaysAgo } });
    expect(await t.repo.removeExpiredClaims(new Date(Date.now() - 7 * 86_400_000))).toBe(1);
    expect(await t.repo.find(t.acme.organization.id, old.id)).toBeNull();
    expect(await t.repo.find(t.acme.organization.id, kept.id)).toMatchObject({ status: 'pending' });
    expect(await t.repo.find(t.acme.organization.id, verifiedOld.id)).toMatchObject({ status: 'verified' });
    await t.env.prisma.domain.deleteMany({ where: { id: { in: [kept.id, verifiedOld.id] } } });
  });

  it('a domain with links on it is not deleted', async () => {
    const org = t.acme.organization.id;
    const d = await create(org, 'busy.acme.test');
    const link = await new ClickFixtures(t.env.prisma).useOwner(org, t.acme.owner.user.id, t.acme.template.id).link(org);
    await t.env.prisma.link.update({ where: { id: link.id }, data: { domainId: d.id, domainName: d.domain } });
    expect(await t.repo.delete(org, d.id)).toEqual({ kind: 'in-use', links: 1 });
    expect(await t.repo.find(org, d.id)).toMatchObject({ domain: 'busy.acme.test' });
  });

  it("another organization's domain answers as missing and is left untouched", async () => {
    const mine = await create(t.acme.organization.id, 'mine.acme.test');
    const foreign = t.other.organization.id;
    expect(await t.repo.find(foreign, mine.id)).toBeNull();
    expect(await t.repo.findByName(foreign, 'mine.acme.test')).toBeNull();
    expect(await t.repo.update(foreign, mine.id, { notFoundUrl: 'https://evil.test/' })).toEqual({ kind: 'missing' });
    expect(await t.repo.delete(foreign, mine.id)).toEqual({ kind: 'missing' });
    expect(await t.repo.find(t.acme.organization.id, mine.id)).toMatchObject({ notFoundUrl: null });
    expect(await t.repo.find(t.acme.organization.id, 'not-a-uuid')).toBeNull();
  });

  it('finds the domains due for a DNS re-check: never-checked pending ones first, then stale verified ones', async () => {
    const now = new Date();
    const stale = await create(t.other.organization.id, 'stale.other.test');
    await t.repo.recordCheck(t.other.organization.id, stale.id, { status: DomainStatus.verified, verificationError: null, failedChecks: 0, verifiedAt: now, lastCheckedAt: new Date(now.getTime() - 2 * 86_400_000) });
    const due = await t.repo.dueForCheck(now, { pendingFor: 7 * 86_400_000, pendingEvery: 60_000, verifiedEvery: 86_400_000, limit: 100 });
    // links.acme.test and limit.other.test were verified a moment ago: not due.
    expect(due.slice(0, -1).map((d) => d.domain).sort()).toEqual(['busy.acme.test', 'mine.acme.test']);
    expect(due.at(-1)?.domain).toBe('stale.other.test');
    expect(await t.repo.dueForCheck(now, { pendingFor: 7 * 86_400_000, pendingEvery: 60_000, verifiedEvery: 86_400_000, limit: 1 })).toHaveLength(1);
  });

  it('a check outcome for a domain of another organization answers missing and writes nothing', async () => {
    const mine = await create(t.acme.organization.id, 'checked.acme.test');
    expect(await verify(t.other.organization.id, mine.id)).toEqual({ kind: 'missing' });
    const pendingOutcome = { status: DomainStatus.pending, verificationError: 'x', failedChecks: 0, verifiedAt: null, lastCheckedAt: new Date() };
    expect(await t.repo.recordCheck(t.other.organization.id, mine.id, pendingOutcome)).toEqual({ kind: 'missing' });
    expect(await t.repo.find(t.acme.organization.id, mine.id)).toMatchObject({ status: 'pending', verificationError: null, heldName: null });
  });
});
