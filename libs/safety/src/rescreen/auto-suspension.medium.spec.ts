import { randomUUID } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { closeAll, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { AutoSuspension } from './auto-suspension';
import { RescreenModule } from './rescreen.module';
import { BlockedLink } from './rescreen.pg';

const HOUR = 3600_000;

/** decisions §22: an organization is suspended at its AUTO_SUSPEND_BLOCKED_LINKS-th link blocked by re-screening within 24 h. */
describe(AutoSuspension.name, () => {
  let env: TestEnv, app: INestApplicationContext, auto: AutoSuspension, org: SeededOrganization;

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([RescreenModule], { AUTO_SUSPEND_BLOCKED_LINKS: '3' }));
    auto = app.get(AutoSuspension);
    org = await seedOrganization(env);
  });
  afterAll(() => closeAll(app, env));

  const blocked = (id: string, at: number): BlockedLink => ({ id, organizationId: org.organization.id, projectId: null, domainName: '', shortCode: id.slice(0, 8), reason: 'malware', blockedAt: new Date(at) });
  const suspension = async () => {
    const o = await env.prisma.organization.findUniqueOrThrow({ where: { id: org.organization.id } });
    return [o.suspendedAt !== null, o.suspensionReason];
  };

  it('counts only the last 24 h, each link once', async () => {
    const now = Date.now();
    const [old1, old2, a, b, c] = Array.from({ length: 5 }, () => randomUUID());
    // Two blocks of 25 h ago and two of today: 2 within the window, not 4.
    expect(await auto.record([blocked(old1, now - 25 * HOUR), blocked(old2, now - 25 * HOUR)], now)).toEqual(new Set());
    expect(await auto.record([blocked(a, now - 23 * HOUR), blocked(b, now)], now)).toEqual(new Set());
    // The same link blocked again still counts once.
    expect(await auto.record([blocked(b, now)], now)).toEqual(new Set());
    expect(await suspension()).toEqual([false, null]);
    // The third distinct link within 24 h suspends.
    expect(await auto.record([blocked(c, now)], now)).toEqual(new Set([org.organization.id]));
    expect(await suspension()).toEqual([true, 'automatic: 3 links blocked by re-screening within 24 h, pending review']);
    // Already suspended: not suspended again.
    expect(await auto.record([blocked(randomUUID(), now)], now)).toEqual(new Set());
  });
});
