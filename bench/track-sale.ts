/**
 * `POST /api/track/sale`, a new invoice id a request: sales stored per second, none lost or doubled (docs/performance.md).
 *   node tools/scripts/run.js bench/track-sale.ts [--seconds 60] [--connections 64]
 */
import { ClickFixtures } from '@dl/testing';
import { arg, cpuMsPer, log, print, runBench, startApiBench, wrk } from './kit';

/** A new invoice id per request: `<run>-<thread>-<n>`, and amounts that vary. */
const luaRequest = (run: string) => `
local n = 0
local tid = 0
setup = function(thread) tid = tid + 1; thread:set("tid", tid) end
request = function()
  n = n + 1
  local body = '{"customerExternalId":"bench_customer","amount":' .. (100 + n % 9900) .. ',"currency":"USD","invoiceId":"${run}-' .. tostring(tid) .. '-' .. n .. '"}'
  return wrk.format(nil, nil, nil, body)
end`;

runBench(async () => {
  const seconds = arg('seconds', 60);
  const connections = arg('connections', 64);
  const bench = await startApiBench();
  try {
    const orgId = bench.org.organization.id;
    const fx = new ClickFixtures(bench.env.prisma).useOwner(orgId, bench.org.owner.user.id, bench.org.template.id);
    const link = await fx.link(orgId);
    const click = await fx.click({ id: link.id, organizationId: orgId });
    const leadRes = await fetch(`${bench.url}/api/track/lead`, {
      method: 'POST',
      headers: bench.auth,
      body: JSON.stringify({ clickId: click.id, eventName: 'Sign up', customerExternalId: 'bench_customer' }),
    });
    if (leadRes.status !== 201) throw new Error(`lead answered ${leadRes.status}`);
    const load = { url: `${bench.url}/api/track/sale`, method: 'POST', headers: bench.auth, connections };
    await wrk({ ...load, seconds: 3, luaRequest: luaRequest('warm') });
    const sales = () => bench.env.prisma.sale.count({ where: { organizationId: orgId } });
    const before = await sales();
    const { result: r, cpuMs } = await cpuMsPer(bench, () => wrk({ ...load, seconds, luaRequest: luaRequest('run') }), async () => (await sales()) - before);
    const stored = (await sales()) - before;
    const created = r.requests - r.notOk - r.errors;
    const rollup = await bench.env.prisma.conversionDaily.aggregate({ where: { organizationId: orgId }, _sum: { sales: true } });
    log('done', { stored, created });
    print({
      bench: 'track-sale',
      tool: `wrk -t1 -c${connections} -d${seconds}s (a new invoice id per request)`,
      salesPerSecond: Math.round(stored / seconds),
      requests: r.requests,
      notOk: r.notOk,
      errors: r.errors,
      // Every answered 201 is stored (invoice ids are unique, so none twice); the extra rows are the
      // requests still in flight when wrk stopped (at most one per connection).
      nothingLost: stored >= created,
      inFlightAtStop: stored - created,
      rollupMatches: rollup._sum.sales === (await sales()),
      latencyMs: r.latencyMs,
      cpuMsPerSale: cpuMs,
    });
  } finally {
    await bench.close();
  }
});
