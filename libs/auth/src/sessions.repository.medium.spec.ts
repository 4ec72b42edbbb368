import { createTestEnv, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SessionsRepository } from './sessions.repository';

describe(SessionsRepository.name, () => {
  let env: TestEnv;
  let repo: SessionsRepository;
  let acme: SeededOrganization;
  let other: SeededOrganization;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new SessionsRepository(env.prisma);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
  });
  afterAll(() => env?.teardown());

  const start = (o = acme) => repo.create({ userId: o.owner.user.id, organizationId: o.organization.id, userAgent: 'UA', ip: '10.0.0.1' });

  it('rotates once per generation: of two refreshes with the same generation, one wins', async () => {
    const s = await start();
    const now = new Date();
    const results = await Promise.all([repo.rotate(s.id, 0, now), repo.rotate(s.id, 0, now)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(results.find(Boolean)).toMatchObject({ id: s.id, generation: 1 });
    expect(await repo.rotate(s.id, 0, now)).toBeNull();
    expect(await repo.rotate(s.id, 1, now)).toMatchObject({ generation: 2 });
  });

  it('does not rotate a revoked, idle or too old session', async () => {
    const now = new Date();
    const revoked = await start();
    await repo.revoke(acme.owner.user.id, revoked.id, now);
    expect(await repo.rotate(revoked.id, 0, now)).toBeNull();
    const idle = await start();
    await env.prisma.session.update({ where: { id: idle.id }, data: { lastUsedAt: new Date(now.getTime() - SESSION_IDLE_MS - 1000) } });
    expect(await repo.rotate(idle.id, 0, now)).toBeNull();
    const old = await start();
    await env.prisma.session.update({ where: { id: old.id }, data: { createdAt: new Date(now.getTime() - SESSION_ABSOLUTE_MS - 1000) } });
    expect(await repo.rotate(old.id, 0, now)).toBeNull();
    expect((await repo.listLive(acme.owner.user.id, now)).map((s) => s.id)).not.toEqual(expect.arrayContaining([revoked.id]));
  });

  it("revokes only the user's own sessions, and all but one on demand", async () => {
    const now = new Date();
    const mine = await start();
    const theirs = await start(other);
    expect(await repo.revoke(acme.owner.user.id, theirs.id, now)).toBeNull();
    const keep = await start();
    const revoked = await repo.revokeAllOfUser(acme.owner.user.id, now, keep.id);
    expect(revoked.map((r) => r.id)).toContain(mine.id);
    expect(revoked.map((r) => r.id)).not.toContain(keep.id);
    expect((await repo.listLive(acme.owner.user.id, now)).map((s) => s.id)).toEqual([keep.id]);
    expect((await repo.listLive(other.owner.user.id, now)).map((s) => s.id)).toContain(theirs.id);
  });
});
