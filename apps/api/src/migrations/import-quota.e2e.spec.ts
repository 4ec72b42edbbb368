import request from 'supertest';
import { createApiApp } from '../app';
import { Tier } from '@dl/platform/db';
import { closeAll, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';

const LIMIT = 5;
/** Rows of the large file: 80 yields to the event loop at the importer's 250 rows between two. */
const ROWS = 20_000;

describe('migration import: plan quota up front, event loop free (decisions §14)', () => {
  let env: TestEnv, api: RunningApp, org: SeededOrganization;
  const upload = (csv: string, conflictStrategy = 'skip') =>
    request(api.url)
      .post('/migrations/import')
      .set('Authorization', `Bearer ${org.owner.apiKey}`)
      .field('platform', 'bitly')
      .field('templateId', org.template.id)
      .field('conflictStrategy', conflictStrategy)
      .attach('file', Buffer.from(csv), { filename: 'links.csv', contentType: 'text/csv' });
  const count = () => env.prisma.link.count({ where: { organizationId: org.organization.id } });
  const refused = (creates: number, fit: number) => ({
    error: 'Forbidden',
    message: `Link limit exceeded for your organization: the file would create ${creates} links and ${fit} fit`,
    statusCode: 403,
  });

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', PLAN_LIMITS: JSON.stringify({ FREE: { links: LIMIT } }) });
    org = await seedOrganization(env, { tier: Tier.FREE });
    api = await startApp(createApiApp, env.config);
  });
  afterAll(() => closeAll(api, env));

  it('refuses a file that would pass the link limit before writing any row, naming how many fit', async () => {
    const first = await upload('shortCode,webUrl\nQuota1,https://example.com/1\nQuota2,https://example.com/2\n').expect(200);
    expect(first.body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    // 4 new links (the invalid row does not count) where 3 fit: nothing written.
    const csv = 'shortCode,webUrl\nQuota3,https://example.com/3\n,https://example.com/4\nQuota5,not-a-url\nQuota6,https://example.com/6\n,https://example.com/7\n';
    expect((await upload(csv).expect(403)).body).toEqual(refused(4, 3));
    expect(await count()).toBe(2);
    // Codes that exist already are skipped (or overwrite), so they take no quota ...
    const again = 'shortCode,webUrl\nQuota1,https://example.com/1b\nQuota2,https://example.com/2b\nQuota3,https://example.com/3\nQuota3,https://example.com/3-dup\n';
    expect((await upload(again).expect(200)).body).toEqual({
      imported: 1,
      skipped: 3,
      failed: 0,
      errors: [1, 2, 4].map((row) => ({ row, message: `Short code '${['', 'Quota1', 'Quota2', '', 'Quota3'][row]}' is already in use: skipped` })),
    });
    expect((await upload(again, 'overwrite').expect(200)).body).toMatchObject({ imported: 3, skipped: 0 });
    expect(await count()).toBe(3);
    // ... but with `rename` every row is a new link.
    expect((await upload(again, 'rename').expect(403)).body).toEqual(refused(4, 2));
    expect(await count()).toBe(3);
    // Exactly what fits is accepted.
    expect((await upload('webUrl\nhttps://example.com/8\nhttps://example.com/9\n').expect(200)).body).toMatchObject({ imported: 2 });
    expect(await count()).toBe(LIMIT);
    expect((await upload('webUrl\nhttps://example.com/10\n').expect(403)).body).toEqual(refused(1, 0));
  });

  it('validates a 20,000-row file without freezing the event loop (then refuses it, nothing written)', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => `https://example.com/bulk/${i}`);
    const csv = `webUrl\n${rows.join('\n')}\n`;
    const before = await count();
    let last = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    let doneAt = 0;
    const importing = upload(csv).then((res) => {
      doneAt = performance.now() - started;
      return res;
    });
    // While the file is being validated, other requests are answered.
    await new Promise((r) => setTimeout(r, 500));
    const health = await request(api.url).get('/health');
    const healthAt = performance.now() - started;
    const res = await importing;
    clearInterval(ticker);
    expect(health.status).toBe(200);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refused(ROWS, LIMIT - before));
    expect(await count()).toBe(before);
    expect(healthAt).toBeLessThan(doneAt);
    // Validating the rows takes a second or more; the loop never paused for more than a small part of it.
    expect(maxGap).toBeLessThan(doneAt / 4);
  }, 120_000);
});
