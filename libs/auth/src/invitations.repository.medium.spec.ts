import { createHash, randomBytes } from 'node:crypto';
import { Role, sqlState } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { InvitationsRepository } from './invitations.repository';

const tokenHash = () => createHash('sha256').update(randomBytes(16)).digest('hex');
const DAY = 86_400_000;

describe(InvitationsRepository.name, () => {
  const t = useRepository((prisma) => new InvitationsRepository(prisma), { acme: { name: 'Acme' }, other: { name: 'Other' } });

  const invite = (organizationId: string, email: string, hash = tokenHash(), expiresAt = new Date(Date.now() + 7 * DAY), invitedById: string | null = t.acme.owner.user.id) =>
    t.repo.transaction((tx) => t.repo.create(tx, organizationId, { email, role: Role.MEMBER, tokenHash: hash, invitedById, expiresAt }));

  it('creates an invitation that replaces the pending one for the email, finds it by token and consumes it once', async () => {
    const org = t.acme.organization.id;
    const oldHash = tokenHash();
    await invite(org, 'new@example.test', oldHash);
    const hash = tokenHash();
    const inv = await invite(org, 'new@example.test', hash);
    expect(inv).toEqual({
      id: inv.id,
      organizationId: org,
      email: 'new@example.test',
      role: 'MEMBER',
      expiresAt: expect.any(Date),
      createdAt: expect.any(Date),
      invitedBy: { userId: t.acme.owner.user.id, name: t.acme.owner.user.name },
    });
    expect(await t.repo.findUsable(oldHash, new Date())).toBeNull();
    expect((await t.repo.listPending(org, new Date())).map((i) => i.id)).toEqual([inv.id]);
    expect(await t.repo.findUsable(hash, new Date())).toEqual(inv);
    expect(await t.repo.organizationName(org)).toBe('Acme');

    expect(await t.repo.transaction((tx) => t.repo.consume(tx, inv.id, new Date()))).toBe(true);
    expect(await t.repo.transaction((tx) => t.repo.consume(tx, inv.id, new Date()))).toBe(false);
    expect(await t.repo.findUsable(hash, new Date())).toBeNull();
    expect(await t.repo.listPending(org, new Date())).toEqual([]);
  });

  it('an expired invitation is neither pending nor usable', async () => {
    const hash = tokenHash();
    const inv = await invite(t.acme.organization.id, 'late@example.test', hash, new Date(Date.now() + DAY));
    const later = new Date(Date.now() + 2 * DAY);
    expect(await t.repo.findUsable(hash, later)).toBeNull();
    expect(await t.repo.listPending(t.acme.organization.id, later)).toEqual([]);
    expect(await t.repo.transaction((tx) => t.repo.consume(tx, inv.id, later))).toBe(false);
  });

  it("another organization's invitation answers as missing and stays revocable only by its own", async () => {
    const inv = await invite(t.acme.organization.id, 'mine@example.test');
    expect(await t.repo.revoke(t.other.organization.id, inv.id)).toBe(false);
    expect(await t.repo.listPending(t.other.organization.id, new Date())).toEqual([]);
    expect((await t.repo.listPending(t.acme.organization.id, new Date())).map((i) => i.email)).toContain('mine@example.test');
    expect(await t.repo.revoke(t.acme.organization.id, inv.id)).toBe(true);
    expect(await t.repo.revoke(t.acme.organization.id, inv.id)).toBe(false);
  });

  it('a token hash used by another invitation is refused by its unique index (23505)', async () => {
    const hash = tokenHash();
    await invite(t.acme.organization.id, 'one@example.test', hash);
    expect(sqlState(await rejectionOf(invite(t.other.organization.id, 'two@example.test', hash, undefined, null)))).toBe('23505');
  });
});
