import { Queue } from 'bullmq';
import { createWorkerApp } from '@dl/apps/worker';
import { bullOptions, Queues } from '@dl/platform/queue';
import { appEnv, ClickFixtures, closeAll, RunningApp, seedOrganization, TestEnv } from '@dl/testing';
import { ORGANIZATIONS_DELETE_SCHEDULE } from './maintenance.processor';

const DAY = 24 * 3600_000;

// Decisions §20: the worker's hourly job deletes the organizations whose scheduled date has come.
// What a purge removes, table by table and key by key: libs/organizations organization-deletion.service.medium.spec.ts.
describe('worker: scheduled organization deletion through the maintenance queue', () => {
  let env: TestEnv, worker: RunningApp, maintenance: Queue;

  beforeAll(async () => {
    ({ env, server: worker } = await appEnv(createWorkerApp, { WORKER_SCHEDULES_ENABLED: 'true' }));
    maintenance = new Queue(Queues.maintenance, bullOptions(env.config));
  });
  afterAll(() => closeAll(maintenance, worker, env));

  it('registers the hourly schedule when schedules are enabled', async () => {
    const schedulers = await maintenance.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.name, s.pattern])).toContainEqual([ORGANIZATIONS_DELETE_SCHEDULE.id, 'organizations.delete-due', '23 * * * *']);
  });

  it('deletes an organization on its day with its links and clicks; one not yet due, and another organization, stay', async () => {
    // Dated a day ahead, and the job run as of two days ahead: the real hourly run never finds them due.
    const due = new Date(Date.now() + DAY);
    const [doomed, later, kept] = [await seedOrganization(env), await seedOrganization(env), await seedOrganization(env)];
    const fx = new ClickFixtures(env.prisma);
    for (const o of [doomed, later, kept]) {
      fx.useOwner(o.organization.id, o.owner.user.id, o.template.id);
      await fx.click({ id: (await fx.link(o.organization.id)).id, organizationId: o.organization.id });
    }
    await env.prisma.organization.update({ where: { id: doomed.organization.id }, data: { deletionScheduledAt: due } });
    await env.prisma.organization.update({ where: { id: later.organization.id }, data: { deletionScheduledAt: new Date(due.getTime() + 7 * DAY) } });

    const job = await maintenance.add('organizations.delete-due', { now: new Date(due.getTime() + DAY).toISOString() });
    const deadline = Date.now() + 20_000;
    while (!(await job.isCompleted())) {
      if (Date.now() > deadline || (await job.isFailed())) throw new Error(`deletion did not complete: ${job.failedReason}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await maintenance.getJob(job.id!))?.returnvalue).toBe(1);

    const left = async (organizationId: string) => ({
      organization: await env.prisma.organization.count({ where: { id: organizationId } }),
      links: await env.prisma.link.count({ where: { organizationId } }),
      clicks: await env.prisma.click.count({ where: { organizationId } }),
    });
    expect(await left(doomed.organization.id)).toEqual({ organization: 0, links: 0, clicks: 0 });
    expect(await env.prisma.user.count({ where: { id: doomed.owner.user.id } })).toBe(0);
    expect(await left(later.organization.id)).toEqual({ organization: 1, links: 1, clicks: 1 });
    expect(await left(kept.organization.id)).toEqual({ organization: 1, links: 1, clicks: 1 });
  });
});
