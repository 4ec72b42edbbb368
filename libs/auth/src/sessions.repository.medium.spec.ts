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

  describe('findLive', () => {
    const DAY = 24 * 3600 * 1000;
    /** A session of acme's owner created `createdAgo` and last used `usedAgo` before `now`. */
    const aged = async (now: Date, createdAgo: number, usedAgo: number) => {
      const s = await start();
      await t.env.prisma.session.update({ where: { id: s.id }, data: { createdAt: new Date(now.getTime() - createdAgo), lastUsedAt: new Date(now.getTime() - usedAgo) } });
      return s.id;
    };

    it("answers the live session with its own user and organization (the caller checks that membership); an unknown id or a revoked session is missing, another user's revoke leaves it live", async () => {
      const now = new Date();
      const mine = await start();
      const theirs = await start(t.other);
      expect(await t.repo.findLive(mine.id, now)).toEqual(mine);
      expect(await t.repo.findLive(theirs.id, now)).toMatchObject({ id: theirs.id, userId: t.other.owner.user.id, organizationId: t.other.organization.id });
      expect(await t.repo.findLive('00000000-0000-4000-8000-000000000000', now)).toBeNull();
      await t.repo.revoke(t.acme.owner.user.id, mine.id, now);
      expect(await t.repo.findLive(mine.id, now)).toBeNull();
      // It takes no user (the id comes from a MAC-checked refresh credential): another user's revoke answers it as missing and leaves it live.
      expect(await t.repo.revoke(t.acme.owner.user.id, theirs.id, now)).toBeNull();
      expect(await t.repo.findLive(theirs.id, now)).not.toBeNull();
    });

    it('ends 30 days after the last use: live a millisecond before, missing at 30 days', async () => {
      const now = new Date();
      expect(await t.repo.findLive(await aged(now, 40 * DAY, SESSION_IDLE_MS - 1), now)).not.toBeNull();
      expect(await t.repo.findLive(await aged(now, 40 * DAY, SESSION_IDLE_MS), now)).toBeNull();
      expect(await t.repo.findLive(await aged(now, 40 * DAY, SESSION_IDLE_MS + DAY), now)).toBeNull();
    });

    it('ends 90 days after creation even when used today', async () => {
      const now = new Date();
      expect(await t.repo.findLive(await aged(now, SESSION_ABSOLUTE_MS - 1, 0), now)).not.toBeNull();
      expect(await t.repo.findLive(await aged(now, SESSION_ABSOLUTE_MS, 0), now)).toBeNull();
      expect(await t.repo.findLive(await aged(now, SESSION_ABSOLUTE_MS + DAY, 60_000), now)).toBeNull();
    });

    it('decides by the clock it is given: the same session is live now and missing 30 days on', async () => {
      const now = new Date();
      const s = await start();
      expect(await t.repo.findLive(s.id, now)).not.toBeNull();
      expect(await t.repo.findLive(s.id, new Date(s.lastUsedAt.getTime() + SESSION_IDLE_MS))).toBeNull();
    });
  });
});
