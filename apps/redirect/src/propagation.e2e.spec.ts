import request from 'supertest';
import { createTestEnv, publishInvalidation, RunningApp, seedLink, seedRedirectOrg, startApp, tempDirOf, useSuite } from '@dl/testing';
import { createRedirectApp } from './app';

/** decisions §7.8: a change to a link is seen by every redirect instance within 1 second. */
describe('redirect edge: link changes reach every instance within 1 s', () => {
  const t = useSuite(async (own) => {
    const env = own(await createTestEnv({ CLICK_FALLBACK_DIR: tempDirOf(own, 'dl-redirect-') }));
    const [a, b] = await Promise.all([0, 1].map(async () => own(await startApp(createRedirectApp, env.config))));
    return { env, a, b, org: await seedRedirectOrg(env.prisma) };
  });

  const answer = async (server: RunningApp, code: string) => {
    const res = await request(server.url).get(`/${code}`).redirects(0);
    return res.status === 302 ? res.headers.location : res.status;
  };

  /** Warms both instances, applies the change, then measures until both answer `expected`. */
  async function propagation(code: string, change: () => Promise<void>, expected: string | number): Promise<number> {
    for (let i = 0; i < 3; i++) {
      expect(await answer(t.a, code)).toBe('https://example.com/v1');
      expect(await answer(t.b, code)).toBe('https://example.com/v1');
    }
    await change();
    await publishInvalidation(t.env.config, code);
    const start = Date.now();
    for (;;) {
      const [ra, rb] = await Promise.all([answer(t.a, code), answer(t.b, code)]);
      if (ra === expected && rb === expected) return Date.now() - start;
      if (Date.now() - start > 3000) throw new Error(`still ${ra} / ${rb} after 3 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('an update', async () => {
    const link = await seedLink(t.env.prisma, t.org, { originalUrl: 'https://example.com/v1' });
    const ms = await propagation(
      link.shortCode,
      async () => void (await t.env.prisma.link.update({ where: { id: link.id }, data: { originalUrl: 'https://example.com/v2' } })),
      'https://example.com/v2',
    );
    expect(ms).toBeLessThan(1000);
  });

  it('a deactivation', async () => {
    const link = await seedLink(t.env.prisma, t.org, { originalUrl: 'https://example.com/v1' });
    const ms = await propagation(
      link.shortCode,
      async () => void (await t.env.prisma.link.update({ where: { id: link.id }, data: { isActive: false } })),
      404,
    );
    expect(ms).toBeLessThan(1000);
  });

  it('a delete', async () => {
    const link = await seedLink(t.env.prisma, t.org, { originalUrl: 'https://example.com/v1' });
    const ms = await propagation(
      link.shortCode,
      async () => void (await t.env.prisma.link.delete({ where: { id: link.id } })),
      404,
    );
    expect(ms).toBeLessThan(1000);
  });

  it('an expiry set in the past (410)', async () => {
    const link = await seedLink(t.env.prisma, t.org, { originalUrl: 'https://example.com/v1' });
    const ms = await propagation(
      link.shortCode,
      async () => void (await t.env.prisma.link.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1) } })),
      410,
    );
    expect(ms).toBeLessThan(1000);
  });

  it('a code probed before it existed works as soon as it is created (negative cache invalidated)', async () => {
    const code = `new${Date.now().toString(36)}`;
    expect(await answer(t.a, code)).toBe(404);
    expect(await answer(t.b, code)).toBe(404);
    await seedLink(t.env.prisma, t.org, { shortCode: code, originalUrl: 'https://example.com/created' });
    await publishInvalidation(t.env.config, code);
    const start = Date.now();
    while ((await answer(t.a, code)) !== 'https://example.com/created' || (await answer(t.b, code)) !== 'https://example.com/created') {
      if (Date.now() - start > 3000) throw new Error('not visible after 3 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(Date.now() - start).toBeLessThan(1000);
  });
});
