import { Role, sqlState } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { SsoConnectionInput, SsoRepository } from './sso.repository';

const TOKEN = 'f'.repeat(32);
const OIDC: SsoConnectionInput = {
  type: 'oidc',
  issuer: 'https://idp.example.test',
  clientId: 'client',
  clientSecret: 'v1.sealed',
  entryPoint: null,
  certificate: null,
  idpMetadataXml: null,
  enforce: true,
  defaultRole: Role.MEMBER,
};

describe(SsoRepository.name, () => {
  const t = useRepository((prisma) => new SsoRepository(prisma));
  const addDomain = (organizationId: string, domain: string) => t.repo.transaction((tx) => t.repo.addDomain(tx, organizationId, domain, TOKEN));
  const domainId = async (organizationId: string, domain: string) => (await t.repo.listDomains(organizationId)).find((d) => d.domain === domain)!.id;

  it('stores a connection, verifies a domain, and finds both by the verified domain', async () => {
    const org = t.acme.organization.id;
    await t.repo.transaction((tx) => t.repo.upsertConnection(tx, org, OIDC));
    expect(await t.repo.findConnection(org)).toEqual({ ...OIDC, organizationId: org, updatedAt: expect.any(Date) });
    await t.repo.transaction((tx) => t.repo.upsertConnection(tx, org, { ...OIDC, enforce: false, defaultRole: Role.VIEWER }));
    expect(await t.repo.findConnection(org)).toMatchObject({ enforce: false, defaultRole: 'VIEWER' });

    await addDomain(org, 'acme.test');
    await addDomain(org, 'b.acme.test');
    expect((await t.repo.listDomains(org)).map((d) => [d.domain, d.status])).toEqual([['acme.test', 'pending'], ['b.acme.test', 'pending']]);
    expect(await t.repo.findByVerifiedDomain('acme.test')).toBeNull();
    const at = new Date('2030-01-01T00:00:00Z');
    await t.repo.markVerified(org, await domainId(org, 'acme.test'), at);
    expect(await t.repo.isVerifiedDomainOf(org, 'acme.test')).toBe(true);
    expect(await t.repo.findByVerifiedDomain('acme.test')).toEqual({
      domain: expect.objectContaining({ organizationId: org, domain: 'acme.test', status: 'verified', verifiedAt: at }),
      connection: expect.objectContaining({ organizationId: org, type: 'oidc', defaultRole: 'VIEWER' }),
    });
    await t.repo.transaction((tx) => t.repo.removeDomains(tx, org, ['b.acme.test']));
    expect((await t.repo.listDomains(org)).map((d) => d.domain)).toEqual(['acme.test']);
  });

  it('creates a just-in-time account and its membership, and marks an existing email verified once', async () => {
    const org = t.acme.organization.id;
    const at = new Date('2030-02-01T00:00:00Z');
    const user = await t.repo.transaction(async (tx) => {
      await t.repo.lockOrganization(tx, org);
      expect(await t.repo.findUserByEmail(tx, 'jit@acme.test')).toBeNull();
      const created = await t.repo.createUser(tx, { email: 'jit@acme.test', name: 'Jit', passwordHash: 'x', at });
      await t.repo.addMember(tx, org, created.id, Role.MEMBER);
      return created;
    });
    expect(await t.repo.transaction((tx) => t.repo.findMembership(tx, org, user.id))).toEqual({ role: 'MEMBER' });
    expect(await t.repo.transaction((tx) => t.repo.findUserByEmail(tx, 'jit@acme.test'))).toEqual({ id: user.id, emailVerifiedAt: at });
    await t.repo.transaction((tx) => t.repo.markEmailVerified(tx, user.id, new Date()));
    expect(await t.repo.transaction((tx) => t.repo.findUserByEmail(tx, 'jit@acme.test'))).toEqual({ id: user.id, emailVerifiedAt: at });
  });

  it("another organization's connection and domains answer as missing and are left untouched", async () => {
    const mine = t.acme.organization.id;
    const foreign = t.other.organization.id;
    expect(await t.repo.findConnection(foreign)).toBeNull();
    expect(await t.repo.listDomains(foreign)).toEqual([]);
    await addDomain(mine, 'pending.acme.test');
    const id = await domainId(mine, 'pending.acme.test');
    await t.repo.markVerified(foreign, id, new Date());
    await t.repo.transaction((tx) => t.repo.removeDomains(tx, foreign, ['acme.test', 'pending.acme.test']));
    expect((await t.repo.listDomains(mine)).map((d) => [d.domain, d.status])).toEqual([['acme.test', 'verified'], ['pending.acme.test', 'pending']]);
    expect(await t.repo.isVerifiedDomainOf(foreign, 'acme.test')).toBe(false);
    expect(await t.repo.verifiedElsewhere('acme.test', foreign)).toBe(true);
    expect(await t.repo.verifiedElsewhere('acme.test', mine)).toBe(false);
    expect(await t.repo.transaction((tx) => t.repo.findMembership(tx, foreign, t.acme.owner.user.id))).toBeNull();
  });

  it('a domain verified by one organization cannot be verified by another (23505 on the verified-domain index)', async () => {
    await addDomain(t.other.organization.id, 'acme.test');
    const err = await rejectionOf(t.repo.markVerified(t.other.organization.id, await domainId(t.other.organization.id, 'acme.test'), new Date()));
    expect(sqlState(err)).toBe('23505');
    expect(await t.repo.findByVerifiedDomain('acme.test')).toMatchObject({ domain: { organizationId: t.acme.organization.id } });
  });
});
