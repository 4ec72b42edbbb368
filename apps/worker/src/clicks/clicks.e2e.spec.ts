import { Queue } from 'bullmq';
import { CLICKS_IN_FLIGHT, deviceFingerprint } from '@dl/clicks';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, createTestEnv, KNOWN_IPS, rawClick, startApp, storedClicks, USER_AGENTS, useSuite, waitForValue } from '@dl/testing';

describe('worker: click consumer', () => {
  const t = useSuite(async (own) => {
    const env = own(await createTestEnv());
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const worker = own(await startApp(createWorkerApp, env.config));
    return { env, fx, org, worker, clicks: own(new Queue(Queues.clicks, bullOptions(env.config))), webhooks: own(new Queue(Queues.webhooks, bullOptions(env.config))) };
  });

  const enqueue = (jobs: ClickCapturedJob[], jobIds = true) =>
    t.clicks.addBulk(jobs.map((data) => ({ name: 'click.captured', data, opts: jobIds ? { jobId: data.id } : {} })));
  const allCompleted = async (jobs: Array<{ isCompleted(): Promise<boolean> }>) =>
    (await Promise.all(jobs.map((j) => j.isCompleted()))).every(Boolean);
  const storedCount = (linkId: string) => storedClicks(t.env.prisma, linkId);
  const rollups = async (linkId: string) => {
    const rows = await t.env.prisma.$queryRaw<Array<{ dimension: string; value: string; clicks: number }>>`
      SELECT dimension, value, sum(clicks)::int AS clicks FROM click_rollups WHERE link_id = ${linkId}::uuid AND dimension NOT LIKE 'month:%'
      GROUP BY dimension, value ORDER BY dimension, value`;
    return Object.fromEntries(rows.map((r) => [`${r.dimension}:${r.value}`, r.clicks]));
  };
  const clickCount = async (linkId: string) =>
    (await t.env.prisma.link.findUniqueOrThrow({ where: { id: linkId }, select: { clickCount: true } })).clickCount;

  it('stores the variant and rule the edge chose, and null facts as NULL', async () => {
    const link = await t.fx.link(t.org.id);
    const chosen = rawClick({ id: link.id, organizationId: t.org.id }, { variantIndex: 2, ruleIndex: 0, ip: null, userAgent: null, referrer: null, acceptLanguage: null });
    const plain = rawClick({ id: link.id, organizationId: t.org.id }, {});
    await enqueue([chosen, plain]);
    await waitForValue(() => storedCount(link.id), (n) => n === 2);
    const row = (id: string) => t.env.prisma.click.findFirstOrThrow({ where: { id } });
    expect(await row(chosen.id)).toMatchObject({ variantIndex: 2, ruleIndex: 0, ipAddress: null, userAgent: null, referrer: null, referrerHost: null, acceptLanguage: null, language: null, utmSource: null });
    expect(await row(plain.id)).toMatchObject({ variantIndex: null, ruleIndex: null });
  });

  it('enriches a click from its user agent, IP, referrer and query', async () => {
    const link = await t.fx.link(t.org.id);
    const job = rawClick(
      { id: link.id, organizationId: t.org.id },
      {
        clickedAt: '2026-11-20T10:11:12.345Z',
        ip: KNOWN_IPS.kettering,
        userAgent: USER_AGENTS.iPhone,
        referrer: 'https://www.google.com/search?q=links',
        acceptLanguage: 'en-GB,en;q=0.9',
        query: { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch' },
      },
    );
    await enqueue([job]);
    await waitForValue(() => storedCount(link.id), (n) => n === 1);
    const row = await t.env.prisma.click.findUniqueOrThrow({ where: { id_clickedAt: { id: job.id, clickedAt: new Date(job.clickedAt) } } });
    expect(row).toMatchObject({
      organizationId: t.org.id,
      linkId: link.id,
      clickedAt: new Date('2026-11-20T10:11:12.345Z'),
      ipAddress: '81.2.69.142',
      userAgent: USER_AGENTS.iPhone,
      referrer: 'https://www.google.com/search?q=links',
      referrerHost: 'www.google.com',
      acceptLanguage: 'en-GB,en;q=0.9',
      language: 'en',
      deviceType: 'mobile',
      platform: 'iOS',
      browser: 'Mobile Safari',
      browserVersion: '17.4',
      os: 'iOS',
      osVersion: '17.4.1',
      countryCode: 'GB',
      countryName: 'United Kingdom',
      region: 'England',
      city: 'Kettering',
      timezone: 'Europe/London',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'launch',
      utmTerm: null,
      utmContent: null,
      isBot: false,
    });
    expect(row.latitude).toBeCloseTo(52.3966, 3);
    expect(row.longitude).toBeCloseTo(-0.7212, 3);
    expect(row.visitorHash).toMatch(/^[0-9a-f]{32}$/);
    expect(row.fingerprint).toBe(
      deviceFingerprint({ organizationId: t.org.id, ip: '81.2.69.142', platform: 'ios', osVersion: '17.4', language: 'en' }),
    );
    expect(await rollups(link.id)).toEqual({
      'browser:Mobile Safari': 1,
      'city:GB|England|Kettering': 1,
      'country:GB': 1,
      'device:mobile': 1,
      'os:iOS': 1,
      'platform:iOS': 1,
      'region:GB|England': 1,
      'source:www.google.com': 1,
      'timezone:Europe/London': 1,
      'total:': 1,
      'visitors:': 1,
    });
    expect(await clickCount(link.id)).toBe(1);
    const months = await t.env.prisma.$queryRaw<Array<{ day: string; dimension: string; value: string; clicks: number }>>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, dimension, value, clicks FROM click_rollups
      WHERE link_id = ${link.id}::uuid AND dimension LIKE 'month:%' ORDER BY dimension, value`;
    expect(months.map((m) => `${m.day} ${m.dimension}:${m.value}=${m.clicks}`)).toEqual([
      '2026-11-01 month:city:GB|England|Kettering=1',
      '2026-11-01 month:country:GB=1',
      '2026-11-01 month:device:mobile=1',
      '2026-11-01 month:platform:iOS=1',
      '2026-11-01 month:region:GB|England=1',
      '2026-11-01 month:timezone:Europe/London=1',
      '2026-11-01 month:total:=1',
      '2026-11-01 month:visitors:=1',
    ]);
  });

  it('maps desktop, tablet and other platforms with their geography', async () => {
    const link = await t.fx.link(t.org.id);
    const base = { id: link.id, organizationId: t.org.id };
    const jobs = [
      rawClick(base, { ip: KNOWN_IPS.poulsbo, userAgent: USER_AGENTS.windowsChrome }),
      rawClick(base, { ip: KNOWN_IPS.karlstad, userAgent: USER_AGENTS.macSafari }),
      rawClick(base, { ip: KNOWN_IPS.plymouth, userAgent: USER_AGENTS.iPad }),
      rawClick(base, { ip: '10.0.0.1', userAgent: USER_AGENTS.androidPhone, query: { utm_source: 'twitter' } }),
      rawClick(base, { ip: '10.0.0.2', userAgent: USER_AGENTS.linuxFirefox }),
    ];
    await enqueue(jobs);
    await waitForValue(() => storedCount(link.id), (n) => n === jobs.length);
    const rows = await t.env.prisma.click.findMany({ where: { linkId: link.id } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const pick = (i: number) => {
      const r = byId.get(jobs[i].id)!;
      return [r.deviceType, r.platform, r.browser, r.os, r.countryCode, r.region, r.city, r.timezone];
    };
    expect(pick(0)).toEqual(['desktop', 'Windows', 'Chrome', 'Windows', 'US', 'Washington', 'Poulsbo', 'America/Los_Angeles']);
    expect(pick(1)).toEqual(['desktop', 'macOS', 'Safari', 'Mac OS', 'SE', 'Värmland County', 'Karlstad', 'Europe/Stockholm']);
    expect(pick(2)).toEqual(['tablet', 'iOS', 'Mobile Safari', 'iOS', 'GB', 'England', 'Plymouth', 'Europe/London']);
    expect(pick(3)).toEqual(['mobile', 'Android', 'Chrome', 'Android', null, null, null, null]);
    expect(pick(4)).toEqual(['desktop', 'Linux', 'Firefox', 'Ubuntu', null, null, null, null]);
    const r = await rollups(link.id);
    expect(r['total:']).toBe(5);
    expect([r['device:desktop'], r['device:tablet'], r['device:mobile']]).toEqual([3, 1, 1]);
    expect(r['country:']).toBe(2);
    expect(r['source:twitter']).toBe(1);
    expect(r['source:Direct']).toBe(4);
  });

  it('flags bots: stored, counted only under `bot`, not in the link counter', async () => {
    const link = await t.fx.link(t.org.id);
    const base = { id: link.id, organizationId: t.org.id };
    await enqueue([
      rawClick(base, { userAgent: USER_AGENTS.googlebot }),
      rawClick(base, { userAgent: USER_AGENTS.facebookBot }),
      rawClick(base, { userAgent: null }),
      rawClick(base, { userAgent: USER_AGENTS.windowsChrome }),
    ]);
    await waitForValue(() => storedCount(link.id), (n) => n === 4);
    const bots = await t.env.prisma.click.count({ where: { linkId: link.id, isBot: true } });
    expect(bots).toBe(3);
    const r = await rollups(link.id);
    expect(r['bot:']).toBe(3);
    expect(r['total:']).toBe(1);
    expect(r['device:desktop']).toBe(1);
    expect(await clickCount(link.id)).toBe(1);
  });

  it('is idempotent: the same click delivered twice is stored and counted once', async () => {
    const link = await t.fx.link(t.org.id);
    const job = rawClick({ id: link.id, organizationId: t.org.id });
    // Two BullMQ jobs (different job ids) carrying the same click, as after a replay.
    const first = await enqueue([job, job], false);
    await waitForValue(() => storedCount(link.id), (n) => n === 1);
    const again = await enqueue([job], false);
    await waitForValue(() => allCompleted([...first, ...again]), (v) => v);
    expect(await storedCount(link.id)).toBe(1);
    expect((await rollups(link.id))['total:']).toBe(1);
    expect((await rollups(link.id))['visitors:']).toBe(1);
    expect(await clickCount(link.id)).toBe(1);
  });

  it('drops clicks of unknown links and of links claimed by another organization', async () => {
    const other = await t.fx.organization(Tier.FREE);
    const link = await t.fx.link(t.org.id);
    const ghost = rawClick({ id: '00000000-0000-4000-8000-00000000dead', organizationId: t.org.id });
    const forged = rawClick({ id: link.id, organizationId: other.id });
    const real = rawClick({ id: link.id, organizationId: t.org.id });
    const jobs = await enqueue([ghost, forged, real]);
    await waitForValue(() => allCompleted(jobs), (v) => v);
    expect(await t.env.prisma.click.count({ where: { id: { in: [ghost.id, forged.id] } } })).toBe(0);
    expect(await clickCount(link.id)).toBe(1);
  });

  it('fails a malformed job alone, without retries, and stores the good clicks queued with it', async () => {
    const link = await t.fx.link(t.org.id);
    const good = rawClick({ id: link.id, organizationId: t.org.id });
    const [malformed] = await t.clicks.addBulk([
      { name: 'click.captured', data: { ...good, id: 'not-a-uuid', query: { utm_source: 'x' } } as ClickCapturedJob },
    ]);
    const [ok] = await enqueue([good]);
    await waitForValue(() => allCompleted([ok]), (v) => v);
    await waitForValue(() => malformed.isFailed(), (v) => v);
    const failed = await t.clicks.getJob(malformed.id!);
    expect(failed?.failedReason).toBe('Malformed click: id is not a UUID');
    expect(failed?.attemptsMade).toBe(1);
    expect(await storedCount(link.id)).toBe(1);
  });

  it('counts exactly after 1,000 clicks of varied visitors', async () => {
    const link = await t.fx.link(t.org.id);
    const base = { id: link.id, organizationId: t.org.id };
    const uas = Object.values(USER_AGENTS);
    const ips = Object.values(KNOWN_IPS);
    const days = ['2026-11-18', '2026-11-19', '2026-11-20'];
    const jobs = Array.from({ length: 1000 }, (_, i) =>
      rawClick(base, {
        userAgent: uas[i % uas.length],
        ip: i % 3 === 0 ? `198.51.100.${i % 50}` : ips[i % ips.length],
        clickedAt: `${days[i % 3]}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
      }),
    );
    const expectedBots = jobs.filter((j) => j.userAgent === USER_AGENTS.googlebot || j.userAgent === USER_AGENTS.facebookBot).length;
    await enqueue(jobs);
    await waitForValue(() => storedCount(link.id), (n) => n === 1000, 30_000);
    const r = await rollups(link.id);
    expect(r['total:']).toBe(1000 - expectedBots);
    expect(r['bot:']).toBe(expectedBots);
    expect(await clickCount(link.id)).toBe(1000 - expectedBots);
    const deviceSum = ['mobile', 'desktop', 'tablet'].reduce((s, d) => s + (r[`device:${d}`] ?? 0), 0);
    expect(deviceSum).toBe(1000 - expectedBots);
    const [{ visitors, perDay }] = await t.env.prisma.$queryRaw<Array<{ visitors: number; perDay: number }>>`
      SELECT (SELECT count(*)::int FROM click_daily_visitors WHERE link_id = ${link.id}::uuid) AS visitors,
             (SELECT count(*)::int FROM (SELECT DISTINCT to_char(clicked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), visitor_hash
                FROM clicks WHERE link_id = ${link.id}::uuid AND NOT is_bot) d) AS "perDay"`;
    expect(visitors).toBe(perDay);
    expect(r['visitors:']).toBe(perDay);
    const [{ monthTotal }] = await t.env.prisma.$queryRaw<Array<{ monthTotal: number }>>`
      SELECT coalesce(sum(clicks), 0)::int AS "monthTotal" FROM click_rollups WHERE link_id = ${link.id}::uuid AND dimension = 'month:total'`;
    expect(monthTotal).toBe(1000 - expectedBots);
    const [{ days: perDayTotals }] = await t.env.prisma.$queryRaw<Array<{ days: number }>>`
      SELECT count(*)::int AS days FROM click_rollups WHERE link_id = ${link.id}::uuid AND dimension = 'total'`;
    expect(perDayTotals).toBe(3);
  });

  it('queues link.clicked webhook events only for organizations subscribed to them', async () => {
    const subscribed = await t.fx.organization(Tier.PRO);
    await t.fx.webhook(subscribed.id, ['link.clicked']);
    const quiet = await t.fx.organization(Tier.PRO);
    await t.fx.webhook(quiet.id, ['link.created']);
    const imported = await t.fx.link(subscribed.id, { migrationMetadata: { competitorPlatform: 'branch', competitorId: 'abc123' } });
    const quietLink = await t.fx.link(quiet.id);
    const human = rawClick({ id: imported.id, organizationId: subscribed.id }, { clickedAt: '2026-11-21T08:00:00.000Z' });
    const bot = rawClick({ id: imported.id, organizationId: subscribed.id }, { userAgent: USER_AGENTS.googlebot });
    const quietClick = rawClick({ id: quietLink.id, organizationId: quiet.id });
    await enqueue([human, bot, quietClick]);
    await waitForValue(() => storedCount(imported.id), (n) => n === 2);
    await waitForValue(() => storedCount(quietLink.id), (n) => n === 1);
    const job = await t.webhooks.getJob(human.id);
    expect(job?.name).toBe('webhook.event');
    expect(job?.data).toEqual({
      eventId: human.id,
      organizationId: subscribed.id,
      type: 'link.clicked',
      projectId: null,
      occurredAt: '2026-11-21T08:00:00.000Z',
      data: {
        event: 'link.clicked',
        link: { id: imported.id, shortCode: imported.shortCode, migration_metadata: { competitorPlatform: 'branch', competitorId: 'abc123' } },
        click: { device: 'mobile', country: 'GB', timestamp: '2026-11-21T08:00:00.000Z' },
      },
    });
    expect(await t.webhooks.getJob(bot.id)).toBeUndefined();
    expect(await t.webhooks.getJob(quietClick.id)).toBeUndefined();
  });

  describe('click.batch (the edge\'s transport: one job per flush)', () => {
    const enqueueBatch = (batch: unknown[], jobId: string) => t.clicks.add('click.batch', { clicks: batch }, { jobId });

    it('stores every click of a batch, drops a malformed one (logged, counted) and completes the job', async () => {
      const subscribed = await t.fx.organization(Tier.PRO);
      await t.fx.webhook(subscribed.id, ['link.clicked']);
      const link = await t.fx.link(subscribed.id);
      const good = Array.from({ length: 5 }, () => rawClick({ id: link.id, organizationId: subscribed.id }, { userAgent: USER_AGENTS.iPhone }));
      const malformed = { ...rawClick({ id: link.id, organizationId: subscribed.id }), id: 'not-a-uuid' };
      const job = await enqueueBatch([good[0], good[1], malformed, good[2], good[3], good[4]], `b-${good[0].id}`);
      await waitForValue(() => job.isCompleted(), (v) => v);
      expect(await storedCount(link.id)).toBe(5);
      expect((await rollups(link.id))['total:']).toBe(5);
      expect(await clickCount(link.id)).toBe(5);
      expect((await t.clicks.getJob(job.id!))?.attemptsMade).toBe(1);
      // link.clicked events are queued for a batch's clicks too (event id = click id).
      expect((await t.webhooks.getJob(good[2].id))?.data).toMatchObject({ eventId: good[2].id, type: 'link.clicked' });
      const metrics = await (await fetch(`${t.worker.url}/metrics`)).text();
      expect(metrics).toMatch(/clicks_malformed_total\{job="click.batch"\} 1\b/);
      expect(metrics).toMatch(/queue_jobs_total\{queue="clicks",job="click.batch",outcome="completed"\} \d+/);
    });

    it('a replayed batch, even regrouped with other clicks, counts each click once', async () => {
      const link = await t.fx.link(t.org.id);
      const batch = Array.from({ length: 4 }, () => rawClick({ id: link.id, organizationId: t.org.id }));
      const fresh = rawClick({ id: link.id, organizationId: t.org.id });
      const first = await enqueueBatch(batch, 'replay-1');
      await waitForValue(() => first.isCompleted(), (v) => v);
      // The same clicks again, as a fallback replay chunked differently would send them.
      const again = await Promise.all([
        enqueueBatch([batch[2], batch[3], fresh], 'replay-2'),
        enqueueBatch([batch[0], batch[1], batch[0]], 'replay-3'),
      ]);
      await waitForValue(() => allCompleted(again), (v) => v);
      expect(await storedCount(link.id)).toBe(5);
      expect((await rollups(link.id))['total:']).toBe(5);
      expect(await clickCount(link.id)).toBe(5);
    });

    it('a batch larger than the clicks-in-flight bound is admitted alone; the next waits, then both complete', async () => {
      const link = await t.fx.link(t.org.id);
      const make = (n: number) => Array.from({ length: n }, () => rawClick({ id: link.id, organizationId: t.org.id }));
      const big = make(CLICKS_IN_FLIGHT + 500);
      const jobs = await Promise.all([enqueueBatch(big, 'over-bound'), enqueueBatch(make(100), 'after-over-bound')]);
      await waitForValue(() => allCompleted(jobs), (v) => v, 30_000);
      expect(await storedCount(link.id)).toBe(CLICKS_IN_FLIGHT + 600);
      expect(await clickCount(link.id)).toBe(CLICKS_IN_FLIGHT + 600);
    });

    it('fails a batch without a clicks array alone, without retries', async () => {
      const link = await t.fx.link(t.org.id);
      const broken = await t.clicks.add('click.batch', { click: rawClick({ id: link.id, organizationId: t.org.id }) } as never);
      const ok = await enqueueBatch([rawClick({ id: link.id, organizationId: t.org.id })], 'ok-after-broken');
      await waitForValue(() => allCompleted([ok]), (v) => v);
      await waitForValue(() => broken.isFailed(), (v) => v);
      const failed = await t.clicks.getJob(broken.id!);
      expect(failed?.failedReason).toBe('Malformed click batch: clicks is not an array');
      expect(failed?.attemptsMade).toBe(1);
      expect(await storedCount(link.id)).toBe(1);
    });
  });

  it('counts job outcomes in /metrics', async () => {
    const res = await fetch(`${t.worker.url}/metrics`);
    expect(await res.text()).toMatch(/queue_jobs_total\{queue="clicks",job="click.captured",outcome="completed"\} \d+/);
  });
});
