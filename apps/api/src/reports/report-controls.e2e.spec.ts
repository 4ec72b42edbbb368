import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { Clock, renderReportEmail } from '@dl/reports';
import { appEnv, authHeader, closeAll, ReportFixtures, RunningApp, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const NOW = new Date('2026-12-15T12:00:00Z');

/** decisions §16: the monthly report's top links carry their A/B variants and redirect rules, in the JSON and the email. */
describe('monthly report: variants and rules of top links', () => {
  let env: TestEnv, api: RunningApp, fx: ReportFixtures, org: SeededOrganization;

  beforeAll(async () => {
    ({ env, server: api } = await appEnv(createApiApp));
    jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => NOW);
    fx = new ReportFixtures(env.prisma);
    org = await seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Split Co' });
    await env.prisma.organization.update({ where: { id: org.organization.id }, data: { createdAt: new Date('2026-01-10T00:00:00Z') } });
    const o = org.organization.id;
    const ab = (await fx.link(o, { shortCode: 'abtest', title: 'A/B <test>', createdAt: new Date('2026-02-01T00:00:00Z') })).id;
    await env.prisma.link.update({
      where: { id: ab },
      data: {
        variants: [{ url: 'https://a.example/', weight: 50 }, { url: 'https://b.example/', weight: 50 }],
        redirectRules: [{ conditions: { countries: ['GB'] }, url: 'https://gb.example/' }, { conditions: { languages: ['fr'] }, url: 'https://fr.example/' }],
      },
    });
    await fx.rollup(o, ab, '2026-11-05', 100);
    await fx.rollup(o, ab, '2026-11-05', 40, 'variant', '0');
    await fx.rollup(o, ab, '2026-11-05', 25, 'variant', '1');
    await fx.rollup(o, ab, '2026-11-05', 5, 'variant', '2'); // a third variant, since removed
    await fx.rollup(o, ab, '2026-11-05', 30, 'rule', '0');
    // Other months never count.
    await fx.rollup(o, ab, '2026-10-05', 9, 'variant', '0');
    const ruled = (await fx.link(o, { shortCode: 'ruledonly', title: 'Rules only', createdAt: new Date('2026-02-01T00:00:00Z') })).id;
    await env.prisma.link.update({ where: { id: ruled }, data: { redirectRules: [{ conditions: { devices: ['ios'] }, url: 'https://ios.example/' }] } });
    await fx.rollup(o, ruled, '2026-11-06', 20);
    const plain = (await fx.link(o, { shortCode: 'plainlink', title: 'Plain', createdAt: new Date('2026-02-01T00:00:00Z') })).id;
    await fx.rollup(o, plain, '2026-11-07', 10);
  });
  afterAll(() => closeAll(api, env));

  it('JSON: variants (current and removed) and rules (with no rule) with clicks and their share of the link; plain links unchanged', async () => {
    const res = await request(api.url).get('/api/reports/monthly/2026-11').set(authHeader(org.owner.jwt)).expect(200);
    expect(res.body.topLinks).toEqual([
      {
        label: 'A/B <test>',
        sublabel: 'http://sho.rt/abtest',
        value: 100,
        share: 0.7692,
        variants: [
          { variant: 0, url: 'https://a.example/', clicks: 40, share: 0.4 },
          { variant: 1, url: 'https://b.example/', clicks: 25, share: 0.25 },
          { variant: 2, url: null, clicks: 5, share: 0.05 },
        ],
        rules: [
          { rule: 0, clicks: 30, share: 0.3 },
          { rule: null, clicks: 70, share: 0.7 },
        ],
      },
      {
        label: 'Rules only',
        sublabel: 'http://sho.rt/ruledonly',
        value: 20,
        share: 0.1538,
        rules: [{ rule: null, clicks: 20, share: 1 }],
      },
      { label: 'Plain', sublabel: 'http://sho.rt/plainlink', value: 10, share: 0.0769 },
    ]);

    const email = renderReportEmail(res.body);
    expect(email.text).toContain('A/B <test>: A/B: variant 1 40% (40) · variant 2 25% (25) · variant 3 (removed) 5% (5); Rules: rule 1 30% (30) · no rule 70% (70)');
    expect(email.text).toContain('Rules only: Rules: no rule 100% (20)');
    expect(email.text).not.toMatch(/Plain: /);
    expect(email.html).toContain('http://sho.rt/abtest<br>A/B: variant 1 40% (40) · variant 2 25% (25) · variant 3 (removed) 5% (5)<br>Rules: rule 1 30% (30) · no rule 70% (70)');
    expect(email.html).toContain('A/B &lt;test&gt;');
  });
});
