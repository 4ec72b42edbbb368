import request from 'supertest';
import * as yauzl from 'yauzl';
import { addMember, authHeader, ClickFixtures, closeAll, createTestEnv, RunningApp, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

/** Every entry of a ZIP (yauzl), by name, as text. */
function unzip(buffer: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files: Record<string, string> = {};
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files[entry.fileName] = Buffer.concat(chunks).toString('utf8');
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The rows of a CSV without quoted newlines (what these files hold), as objects. */
function csvRows(text: string): Array<Record<string, string>> {
  const parseLine = (line: string): string[] => {
    const out: string[] = [];
    let cur = '', quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
        else if (c === '"') quoted = false;
        else cur += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') out.push(cur), (cur = '');
      else cur += c;
    }
    out.push(cur);
    return out;
  };
  const [header, ...lines] = text.split('\r\n').filter(Boolean).map(parseLine);
  return lines.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
}

const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('GET /api/organization/export (decisions §20)', () => {
  let env: TestEnv;
  let api: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    api = await startApp(createApiApp, env.config);
  });
  afterAll(() => closeAll(api, env));

  it("streams a ZIP of the organization's data, and only its own, consistent while links are being created", async () => {
    const org = await seedOrganization(env);
    const other = await seedOrganization(env);
    const fx = new ClickFixtures(env.prisma).useOwner(org.organization.id, org.owner.user.id, org.template.id);
    fx.useOwner(other.organization.id, other.owner.user.id, other.template.id);
    const links: Array<{ id: string; shortCode: string }> = [];
    for (let i = 0; i < 30; i++) links.push(await fx.link(org.organization.id, { title: i === 0 ? '=HYPERLINK("x")' : undefined }));
    for (const l of links.slice(0, 10)) await fx.click({ id: l.id, organizationId: org.organization.id });
    const foreign = await fx.link(other.organization.id);
    await fx.click({ id: foreign.id, organizationId: other.organization.id });
    await fx.webhook(org.organization.id, ['link.clicked']);
    await env.prisma.project.create({ data: { organizationId: org.organization.id, userId: org.owner.user.id, name: 'Launch' } });

    // Links are created through the api while the export streams.
    let writing = true;
    const created: string[] = [];
    const writer = (async () => {
      for (let i = 0; writing && i < 200; i++) {
        const res = await request(api.url)
          .post('/api/links')
          .set(authHeader(org.owner.jwt))
          .send({ templateId: org.template.id, originalUrl: `https://example.com/during/${i}` });
        if (res.status === 201) created.push(res.body.id);
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    const res = await request(api.url).get('/api/organization/export').set(authHeader(org.owner.jwt)).buffer(true).parse(binary).expect(200);
    writing = false;
    await writer;

    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="organization-${org.organization.id}-export.zip"`);
    const files = await unzip(res.body as Buffer);
    expect(Object.keys(files).sort()).toEqual(['clicks.csv', 'domains.json', 'links.csv', 'members.csv', 'projects.json', 'templates.json', 'webhooks.json']);

    const exported = csvRows(files['links.csv']);
    const ids = exported.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const l of links) expect(ids).toContain(l.id);
    expect(ids).not.toContain(foreign.id);
    // Consistent: the links of the snapshot are the 30 seeded plus a prefix of the ones created during it.
    const during = ids.filter((id) => created.includes(id));
    expect(ids.length).toBe(30 + during.length);
    expect(during.sort()).toEqual(created.slice(0, during.length).sort());
    expect(Object.keys(exported[0])).not.toContain('password_hash');
    expect(exported.find((r) => r.id === links[0].id)?.title).toBe(`'=HYPERLINK("x")`);

    const clicks = csvRows(files['clicks.csv']);
    expect(clicks).toHaveLength(10);
    for (const c of clicks) expect(ids).toContain(c.link_id);

    const webhooks = JSON.parse(files['webhooks.json']);
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['link.clicked'] });
    expect(webhooks[0]).not.toHaveProperty('secret');
    expect(files['webhooks.json']).not.toContain('whsec_');
    expect(JSON.parse(files['projects.json'])).toEqual([expect.objectContaining({ name: 'Launch' })]);
    expect(JSON.parse(files['templates.json'])).toEqual([expect.objectContaining({ slug: 'default' })]);
    expect(JSON.parse(files['domains.json'])).toEqual([]);
    expect(csvRows(files['members.csv'])).toEqual([
      { user_id: org.owner.user.id, email: org.owner.user.email, name: org.owner.user.name, role: 'OWNER', joined_at: expect.stringMatching(/^\d{4}-/) },
    ]);
  });

  it('an Admin → 403; an empty organization exports headers and empty arrays', async () => {
    const org = await seedOrganization(env);
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    const refused = await request(api.url).get('/api/organization/export').set(authHeader(admin.jwt)).expect(403);
    expect(refused.body).toEqual({ error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 });
    await env.prisma.template.deleteMany({ where: { organizationId: org.organization.id } });
    const res = await request(api.url).get('/api/organization/export').set(authHeader(org.owner.apiKey)).buffer(true).parse(binary).expect(200);
    const files = await unzip(res.body as Buffer);
    expect(files['links.csv']).toMatch(/^id,organization_id,/);
    expect(files['links.csv'].split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(files['clicks.csv'].split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(files['templates.json'])).toEqual([]);
  });
});
