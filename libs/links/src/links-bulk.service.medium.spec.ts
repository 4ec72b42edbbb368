import { INestApplicationContext } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { closeAll, errorBodyOf, ownerPrincipal, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { LinksBulkService } from './links-bulk.service';
import { LinksModule } from './links.module';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const bad = (message: string, validation?: Record<string, string>) =>
  validation ? { error: 'Bad Request', message, statusCode: 400, validation } : { error: 'Bad Request', message, statusCode: 400 };

// The rules of a bulk body, all-or-nothing (decisions §6), on Postgres; the api's e2e spec keeps
// the answers' shape and one refusal of each kind over HTTP.
describe(LinksBulkService.name, () => {
  let env: TestEnv, app: INestApplicationContext, bulk: LinksBulkService, acme: SeededOrganization, free: SeededOrganization;
  const items = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
    Array.from({ length: n }, (_, i) => ({ templateId: acme.template.id, originalUrl: `https://example.com/${i}`, ...extra(i) }));
  const count = (o = acme) => env.prisma.link.count({ where: { organizationId: o.organization.id } });

  beforeAll(async () => {
    // FREE may hold 50 links here, so a batch passes the plan limit without 1,000 rows.
    ({ env, app } = await serviceEnv([LinksModule], { PLAN_LIMITS: JSON.stringify({ FREE: { links: 50 } }) }));
    bulk = app.get(LinksBulkService);
    [acme, free] = [await seedOrganization(env, { tier: Tier.PRO }), await seedOrganization(env)];
  });
  afterAll(() => closeAll(app, env));

  describe('create', () => {
    const refusal = (body: unknown) => errorBodyOf(bulk.bulkCreate(ownerPrincipal(acme), body));

    it.each([[{}], [{ links: 'x' }], [{ links: { a: 1 } }], [null], [[]]])('%j → 400 Invalid links array', async (body) => {
      expect(await refusal(body)).toEqual(bad('Invalid links array'));
    });

    it('101 items → 400, an unknown top-level field → 400, a non-object item → 400 naming it; nothing written', async () => {
      const before = await count();
      expect(await refusal({ links: items(101) })).toEqual(bad('Maximum 100 links allowed per bulk create'));
      expect(await refusal({ links: items(1), extra: true })).toEqual(bad('Validation error', { extra: 'Unknown field' }));
      expect(await refusal({ links: [items(1)[0], 'x'] })).toEqual(bad('Validation error: links[1]: Must be an object', { 'links[1]': 'Must be an object' }));
      expect(await count()).toBe(before);
    });

    it.each([
      [{ attributionWindowHours: 0 }, 'links[1].attributionWindowHours', 'Must be between 1 and 2160'],
      [{ foo: 1 }, 'links[1].foo', 'Unknown field'],
      [{ templateId: 'x' }, 'links[1].templateId', 'Must be a valid UUID'],
      [{ customCode: 'a-b' }, 'links[1].customCode', 'Must be 4-30 characters, alphanumeric only'],
      [{ expiresAt: '2000-01-01T00:00:00Z' }, 'links[1].expiresAt', 'Must be a future date'],
      [{ originalUrl: undefined }, 'links[1].originalUrl', 'Must be a valid URL'],
    ])('item field %j → 400 naming links[1], nothing written', async (extra, path, msg) => {
      const before = await count();
      const links: Array<Record<string, unknown>> = items(3);
      links[1] = { ...links[1], ...extra };
      if ('originalUrl' in extra) delete links[1].originalUrl;
      expect(await refusal({ links })).toEqual(bad(`Validation error: ${path}: ${msg}`, { [path]: msg }));
      expect(await count()).toBe(before);
    });

    it('the same code twice in one batch → 409', async () => {
      expect(await refusal({ links: items(2, () => ({ customCode: 'TwiceCode' })) })).toEqual({ error: 'Conflict', message: "Short code 'TwiceCode' is already in use", statusCode: 409 });
    });

    it("a batch that would pass the plan's link limit → 403, nothing written; what fits is created", async () => {
      const links = (n: number) => Array.from({ length: n }, () => ({ templateId: free.template.id, originalUrl: 'https://example.com' }));
      await bulk.bulkCreate(ownerPrincipal(free), { links: links(40) });
      expect(await errorBodyOf(bulk.bulkCreate(ownerPrincipal(free), { links: links(11) }))).toEqual({
        error: 'Forbidden',
        message: 'Link limit exceeded for your organization',
        statusCode: 403,
      });
      expect(await count(free)).toBe(40);
      expect((await bulk.bulkCreate(ownerPrincipal(free), { links: links(10) })).created).toBe(10);
      expect(await count(free)).toBe(50);
    });
  });

  describe('update and delete', () => {
    let ids: string[];
    beforeAll(async () => {
      ids = (await bulk.bulkCreate(ownerPrincipal(acme), { links: items(3, (i) => ({ title: `U${i}` })) })).links.map((l) => l.id);
    });
    const title = async (id: string) => (await env.prisma.link.findUniqueOrThrow({ where: { id } })).title;

    it.each([
      [{}, 'Invalid links array'],
      [{ updates: 'x' }, 'Invalid links array'],
    ])('%j → 400 %s', async (body, message) => {
      expect(await errorBodyOf(bulk.bulkUpdate(ownerPrincipal(acme), body))).toEqual(bad(message));
    });

    it('101 updates → 400', async () => {
      const updates = Array.from({ length: 101 }, () => ({ id: ids[0], data: { title: 'x' } }));
      expect(await errorBodyOf(bulk.bulkUpdate(ownerPrincipal(acme), { updates }))).toEqual(bad('Maximum 100 links allowed per bulk update'));
    });

    it.each([
      [{ id: 'x', data: { title: 'a' } }, 'updates[1].id', 'Must be a valid UUID'],
      [{ data: { title: 'a' } }, 'updates[1].id', 'Must be a valid UUID'],
      [{ id: UNKNOWN, data: { originalUrl: 'x' } }, 'updates[1].data.originalUrl', 'Must be a valid URL'],
      [{ id: UNKNOWN, data: { shortCode: 'abcd' } }, 'updates[1].data.shortCode', 'Short code cannot be changed'],
      [{ id: UNKNOWN, data: {} }, 'updates[1].data', 'No updates provided'],
      [{ id: UNKNOWN, data: 'x' }, 'updates[1].data', 'Must be an object'],
      [{ id: UNKNOWN, data: { title: 'a' }, extra: 1 }, 'updates[1].extra', 'Unknown field'],
    ])('item %j → 400 naming it, nothing changed', async (item, path, msg) => {
      const body = { updates: [{ id: ids[2], data: { title: 'Nope' } }, item] };
      expect(await errorBodyOf(bulk.bulkUpdate(ownerPrincipal(acme), body))).toEqual(bad(`Validation error: ${path}: ${msg}`, { [path]: msg }));
      expect(await title(ids[2])).toBe('U2');
    });

    it('an unknown or foreign id → 404 Link not found: <id>, nothing changed', async () => {
      const theirs = await env.prisma.link.findFirstOrThrow({ where: { organizationId: free.organization.id } });
      for (const missing of [UNKNOWN, theirs.id]) {
        const body = { updates: [{ id: ids[0], data: { title: 'Changed' } }, { id: missing, data: { title: 'x' } }] };
        expect(await errorBodyOf(bulk.bulkUpdate(ownerPrincipal(acme), body))).toEqual({ error: 'Not Found', message: `Link not found: ${missing}`, statusCode: 404 });
      }
      expect([await title(ids[0]), await title(theirs.id)]).toEqual(['U0', theirs.title]);
    });

    it('delete: a malformed id → 400 naming it, 101 ids → 400, nothing deleted', async () => {
      expect(await errorBodyOf(bulk.bulkDelete(ownerPrincipal(acme), { ids: [ids[0], 'nope'] }))).toEqual(bad('Validation error: ids[1]: Must be a valid UUID', { 'ids[1]': 'Must be a valid UUID' }));
      expect(await errorBodyOf(bulk.bulkDelete(ownerPrincipal(acme), { ids: Array(101).fill(UNKNOWN) }))).toEqual(bad('Maximum 100 links allowed per bulk delete'));
      for (const body of [{}, { ids: 'x' }]) expect(await errorBodyOf(bulk.bulkDelete(ownerPrincipal(acme), body))).toEqual(bad('Invalid links array'));
      expect(await title(ids[0])).toBe('U0');
    });
  });
});
