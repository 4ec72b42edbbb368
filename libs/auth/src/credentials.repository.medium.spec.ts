import { createHash } from 'node:crypto';
import { Role, sqlState } from '@dl/platform/db';
import { addMember, rejectionOf, useRepository } from '@dl/testing';
import { CredentialsRepository } from './credentials.repository';

const sha = (key: string) => createHash('sha256').update(key).digest('hex');

describe(CredentialsRepository.name, () => {
  const t = useRepository((prisma) => new CredentialsRepository(prisma));

  it("finds a key by its hash with its creator's role and the organization's tier", async () => {
    const found = await t.repo.findApiKeyByHash(sha(t.acme.owner.apiKey));
    expect(found).toEqual({
      id: t.acme.owner.apiKeyId,
      organizationId: t.acme.organization.id,
      userId: t.acme.owner.user.id,
      keyHash: sha(t.acme.owner.apiKey),
      revoked: false,
      role: 'OWNER',
      tier: 'FREE',
      scopes: ['all'],
      expiresAt: null,
      deletionScheduled: false,
      suspended: false,
    });
    expect(await t.repo.findMembership(t.acme.organization.id, t.acme.owner.user.id)).toEqual({
      role: 'OWNER',
      tier: 'FREE',
      twoFactorMissing: false,
      deletionScheduled: false,
      suspended: false,
    });
  });

  it("says when the organization requires 2FA the member lacks, and when it is scheduled for deletion", async () => {
    const member = await addMember(t.env, t.other.organization.id, Role.MEMBER);
    await t.env.prisma.organization.update({ where: { id: t.other.organization.id }, data: { requireTwoFactor: true, deletionScheduledAt: new Date() } });
    expect(await t.repo.findMembership(t.other.organization.id, member.user.id)).toMatchObject({ twoFactorMissing: true, deletionScheduled: true });
    expect(await t.repo.findApiKeyByHash(sha(member.apiKey))).toMatchObject({ deletionScheduled: true });
    await t.env.prisma.user.update({ where: { id: member.user.id }, data: { twoFactorEnabledAt: new Date(), totpSecret: 'JBSWY3DPEHPK3PXP' } });
    expect(await t.repo.findMembership(t.other.organization.id, member.user.id)).toMatchObject({ twoFactorMissing: false });
    await t.env.prisma.organization.update({ where: { id: t.other.organization.id }, data: { requireTwoFactor: false, deletionScheduledAt: null } });
  });

  it('says when the organization is suspended (decisions §22)', async () => {
    await t.env.prisma.organization.update({ where: { id: t.other.organization.id }, data: { suspendedAt: new Date(), suspensionReason: 'test' } });
    expect(await t.repo.findMembership(t.other.organization.id, t.other.owner.user.id)).toMatchObject({ suspended: true });
    expect(await t.repo.findApiKeyByHash(sha(t.other.owner.apiKey))).toMatchObject({ suspended: true });
    await t.env.prisma.organization.update({ where: { id: t.other.organization.id }, data: { suspendedAt: null, suspensionReason: null } });
    expect(await t.repo.findApiKeyByHash(sha(t.other.owner.apiKey))).toMatchObject({ suspended: false });
  });

  it('a revoked key, and a key whose creator left, say so', async () => {
    const member = await addMember(t.env, t.acme.organization.id, Role.MEMBER);
    await t.env.prisma.membership.delete({ where: { organizationId_userId: { organizationId: t.acme.organization.id, userId: member.user.id } } });
    expect(await t.repo.findApiKeyByHash(sha(member.apiKey))).toMatchObject({ id: member.apiKeyId, role: null, revoked: false });
    await t.env.prisma.apiKey.update({ where: { id: member.apiKeyId }, data: { revokedAt: new Date() } });
    expect(await t.repo.findApiKeyByHash(sha(member.apiKey))).toMatchObject({ revoked: true });
  });

  it('a membership in another organization answers as missing; touching a key (time and IP) counts only in its own organization, once a minute', async () => {
    expect(await t.repo.findMembership(t.other.organization.id, t.acme.owner.user.id)).toBeNull();
    expect(await t.repo.findApiKeyByHash(sha('dl_unknown'))).toBeNull();

    const at = new Date('2030-01-01T10:00:00Z');
    await t.repo.touchApiKey(t.other.organization.id, t.acme.owner.apiKeyId, at, '203.0.113.9');
    const lastUsed = async () => (await t.env.prisma.apiKey.findUniqueOrThrow({ where: { id: t.acme.owner.apiKeyId } })).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const lastIp = async () => (await t.env.prisma.apiKey.findUniqueOrThrow({ where: { id: t.acme.owner.apiKeyId } })).lastUsedIp;
    await t.repo.touchApiKey(t.acme.organization.id, t.acme.owner.apiKeyId, at, '203.0.113.1');
    expect(await lastUsed()).toEqual(at);
    expect(await lastIp()).toBe('203.0.113.1');
    await t.repo.touchApiKey(t.acme.organization.id, t.acme.owner.apiKeyId, new Date(at.getTime() + 30_000), '203.0.113.2');
    expect(await lastUsed()).toEqual(at);
    expect(await lastIp()).toBe('203.0.113.1');
    await t.repo.touchApiKey(t.acme.organization.id, t.acme.owner.apiKeyId, new Date(at.getTime() + 61_000), '2001:db8::1');
    expect(await lastUsed()).toEqual(new Date(at.getTime() + 61_000));
    expect(await lastIp()).toBe('2001:db8::1');
  });

  it('a membership lookup with an id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.findMembership('not-a-uuid', t.acme.owner.user.id)))).toBe('22P02');
  });
});
