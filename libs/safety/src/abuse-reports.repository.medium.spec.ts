import { ClickFixtures, rejectionOf, useRepository } from '@dl/testing';
import { AbuseReportsRepository, NewAbuseReport } from './abuse-reports.repository';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Abuse reports are the operator's, across organizations: the scoping proved here is by host and code. */
describe(AbuseReportsRepository.name, () => {
  const t = useRepository((prisma) => new AbuseReportsRepository(prisma));
  const fixtures = () => new ClickFixtures(t.env.prisma).useOwner(t.acme.organization.id, t.acme.owner.user.id, t.acme.template.id);
  const report = (over: Partial<NewAbuseReport> = {}): NewAbuseReport => ({ url: 'http://sho.rt/abc', linkId: null, organizationId: null, category: 'phishing', details: null, reporterEmail: null, ...over });

  it('files a report on a link found by host and code, lists it by status, resolves it and blocks the link', async () => {
    const link = await fixtures().link(t.acme.organization.id);
    const found = await t.repo.findLink('', link.shortCode);
    expect(found).toEqual({ id: link.id, organizationId: t.acme.organization.id });
    const filed = await t.repo.create(report({ url: `http://sho.rt/${link.shortCode}`, linkId: link.id, organizationId: t.acme.organization.id, details: 'fake bank', reporterEmail: 'r@example.test' }));
    expect(filed).toMatchObject({ linkId: link.id, category: 'phishing', details: 'fake bank', status: 'open', resolutionNote: null, resolvedAt: null });
    expect((await t.repo.list('open')).map((r) => r.id)).toEqual([filed.id]);
    expect(await t.repo.find(filed.id)).toEqual(filed);

    expect(await t.repo.blockLink(link.id, 'phishing report')).toEqual({ domainName: '', shortCode: link.shortCode });
    expect(await t.env.prisma.link.findUnique({ where: { id: link.id }, select: { safetyStatus: true, safetyReason: true } })).toEqual({ safetyStatus: 'blocked', safetyReason: 'phishing report' });
    const resolved = await t.repo.resolve(filed.id, 'link-blocked', 'confirmed');
    expect(resolved).toMatchObject({ status: 'link-blocked', resolutionNote: 'confirmed', resolvedAt: expect.any(Date) });
    expect(await t.repo.list('open')).toEqual([]);
    expect((await t.repo.list()).map((r) => r.status)).toEqual(['link-blocked']);
  });

  it('a code is looked up on its own host only; a branded host serves links when verified or invalid, never pending', async () => {
    const link = await fixtures().link(t.acme.organization.id);
    expect(await t.repo.findLink('go.acme.test', link.shortCode)).toBeNull();
    expect(await t.repo.findLink('', 'nope')).toBeNull();
    const token = 'a'.repeat(32);
    await t.env.prisma.domain.create({ data: { organizationId: t.acme.organization.id, domain: 'verified.test', status: 'verified', verificationToken: token } });
    await t.env.prisma.domain.create({ data: { organizationId: t.other.organization.id, domain: 'invalid.test', status: 'invalid', verificationToken: token } });
    await t.env.prisma.domain.create({ data: { organizationId: t.other.organization.id, domain: 'pending.test', verificationToken: token } });
    expect([await t.repo.isLinkHost('verified.test'), await t.repo.isLinkHost('invalid.test'), await t.repo.isLinkHost('pending.test'), await t.repo.isLinkHost('none.test')]).toEqual([true, true, false, false]);
  });

  it('an unknown report or link answers as missing: find null, block null', async () => {
    expect(await t.repo.find(UNKNOWN)).toBeNull();
    expect(await t.repo.blockLink(UNKNOWN, 'x')).toBeNull();
  });

  it('resolving an unknown report is refused (P2025: no row to update)', async () => {
    expect(((await rejectionOf(t.repo.resolve(UNKNOWN, 'dismissed', null))) as { code?: string }).code).toBe('P2025');
  });
});
