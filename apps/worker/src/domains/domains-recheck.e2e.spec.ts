import { Queue } from 'bullmq';
import { createWorkerApp } from '@dl/apps/worker';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { appEnv, runJob, RunningApp, seedOrganization, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { DOMAINS_RECHECK_SCHEDULE } from '../clicks/maintenance.processor';

const DAY = 24 * 3600_000;

describe('worker: branded domain re-checks through the maintenance queue', () => {
  let env: TestEnv, dns: TestDnsServer, worker: RunningApp, maintenance: Queue;

  beforeAll(async () => {
    dns = await startDnsServer();
    ({ env, server: worker } = await appEnv(createWorkerApp, { WORKER_SCHEDULES_ENABLED: 'true', DNS_SERVERS: dns.address }));
    maintenance = new Queue(Queues.maintenance, bullOptions(env.config));
  });
  afterAll(async () => {
    await maintenance?.close();
    await worker?.close();
    await env?.teardown();
    await dns?.close();
  });

  const run = (now: Date) => runJob(maintenance, 'domains.recheck', { now: now.toISOString() }, 20_000);

  it('registers the 10-minute schedule when schedules are enabled', async () => {
    const schedulers = await maintenance.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.pattern])).toContainEqual([DOMAINS_RECHECK_SCHEDULE.id, 'domains.recheck', '*/10 * * * *']);
  });

  it('verifies a pending domain once its record appears, and retires it after three failed days', async () => {
    const org = await seedOrganization(env, { tier: Tier.PRO });
    const token = 'abcdefabcdefabcdefabcdefabcdef12';
    const d = await env.prisma.domain.create({ data: { organizationId: org.organization.id, domain: 'go.worker.test', verificationToken: token } });
    const t0 = d.createdAt.getTime();
    const read = () => env.prisma.domain.findUniqueOrThrow({ where: { id: d.id } });

    await run(new Date(t0 + 60_000));
    expect(await read()).toMatchObject({ status: 'pending', verificationError: 'No TXT record found at _dl-verify.go.worker.test' });
    dns.setTxt('_dl-verify.go.worker.test', [`dl-verify=${token}`]);
    await run(new Date(t0 + 11 * 60_000));
    expect(await read()).toMatchObject({ status: 'verified', verificationError: null });

    dns.setTxt('_dl-verify.go.worker.test', null);
    for (const day of [1, 2, 3]) await run(new Date(t0 + day * DAY + 12 * 60_000));
    expect(await read()).toMatchObject({ status: 'invalid', failedChecks: 3 });
  });

  it('removes a pending claim not verified within 7 days (decisions §22)', async () => {
    const org = await seedOrganization(env, { tier: Tier.PRO });
    const token = 'abcdefabcdefabcdefabcdefabcdef34';
    const stale = await env.prisma.domain.create({ data: { organizationId: org.organization.id, domain: 'stale.worker.test', verificationToken: token } });
    const fresh = await env.prisma.domain.create({ data: { organizationId: org.organization.id, domain: 'fresh.worker.test', verificationToken: token } });
    await run(new Date(stale.createdAt.getTime() + 7 * DAY - 60_000));
    expect(await env.prisma.domain.count({ where: { id: stale.id } })).toBe(1);
    await env.prisma.domain.update({ where: { id: stale.id }, data: { createdAt: new Date(stale.createdAt.getTime() - 8 * DAY) } });
    await run(new Date(stale.createdAt.getTime() + 60_000));
    expect(await env.prisma.domain.count({ where: { id: stale.id } })).toBe(0);
    expect(await env.prisma.domain.count({ where: { id: fresh.id } })).toBe(1);
  });
});
