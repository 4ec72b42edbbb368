import { useRepository } from '@dl/testing';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SessionsRepository } from './sessions.repository';

describe(SessionsRepository.name, () => {
  const t = useRepository((prisma) => new SessionsRepository(prisma));

  const start = (o = t.acme) => t.repo.create({ userId: o.owner.user.id, organizationId: o.organization.id, userAgent: 'UA', ip: '10.0.0.1' });

  it('rotates once per generation: of two refreshes with the same generation, one wins', async () => {
    const s = await start();
    const now = new Date();
    const results = await Promise.all([t.repo.rotate(s.id, 0, now), t.repo.rotate(s.id, 0, now)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(results.find(Boolean)).toMatchObject({ id: s.id, generation: 1 });
    expect(await t.repo.rotate(s.id, 0, now)).toBeNull();
    expect(await t.repo.rotate(s.id, 1, now)).toMatchObject({ generation: 2 });
  });

  it('does not rotate a revoked, idle or too old session', async () => {
    const now = new Date();
    const revoked = await start();
    await t.repo.revoke(t.acme.owner.user.id, revoked.id, now);
    expect(await t.repo.rotate(revoked.id, 0, now)).toBeNull();
    const idle = await start();
    await t.env.prisma.session.update({ where: { id: idle.id }, data: { lastUsedAt: new Date(now.getTime() - SESSION_IDLE_MS - 1000) } });
    expect(await t.repo.rotate(idle.id, 0, now)).toBeNull();
    const old = await start();
    await t.env.prisma.session.update({ where: { id: old.id }, data: { createdAt: new Date(now.getTime() - SESSION_ABSOLUTE_MS - 1000) } });
    expect(await t.repo.rotate(old.id, 0, now)).toBeNull();
    expect((await t.repo.listLive(t.acme.owner.user.id, now)).map((s) => s.id)).not.toEqual(expect.arrayContaining([revoked.id]));
  });

  it("revokes only the user's own sessions, and all but one on demand", async () => {
    const now = new Date();
    const mine = await start();
    const theirs = await start(t.other);
    expect(await t.repo.revoke(t.acme.owner.user.id, theirs.id, now)).toBeNull();
    const keep = await start();
    const revoked = await t.repo.revokeAllOfUser(t.acme.owner.user.id, now, keep.id);
    expect(revoked.map((r) => r.id)).toContain(mine.id);
    expect(revoked.map((r) => r.id)).not.toContain(keep.id);
    expect((await t.repo.listLive(t.acme.owner.user.id, now)).map((s) => s.id)).toEqual([keep.id]);
    expect((await t.repo.listLive(t.other.owner.user.id, now)).map((s) => s.id)).toContain(theirs.id);
  });
});
