/**
 * `GET /api/analytics/conversions` over seeded sales (docs/performance.md).
 *   node tools/scripts/run.js bench/conversions-summary.ts [--sales 1000000] [--seconds 8]
 */
import { performance } from 'node:perf_hooks';
import { arg, log, print, runAnalyticsBench, vacuumAnalyze, wrkApiPaths } from './kit';

const LINKS = 100;
const CUSTOMERS = 20_000;

runAnalyticsBench(LINKS, async ({ env, org, key, links }) => {
  const [sales, seconds] = [arg('sales', 1_000_000), arg('seconds', 8)];
  const t = performance.now();
  await env.prisma.$executeRaw`
    INSERT INTO customers (organization_id, external_id, link_id, clicked_at, country_code, utm_campaign, first_lead_at, created_at)
    SELECT ${org.id}::uuid, 'cus_' || g, (${links}::uuid[])[1 + g % ${LINKS}], now() - (g % 365) * interval '1 day',
           (ARRAY['US','GB','DE','FR','BR'])[1 + g % 5], (ARRAY['spring','summer','autumn','winter'])[1 + g % 4],
           now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day'
      FROM generate_series(0, ${CUSTOMERS - 1}) g`;
  await env.prisma.$executeRaw`
    INSERT INTO sales (organization_id, customer_id, link_id, country_code, utm_campaign, amount, refunded, currency, event_name, invoice_id, source, created_at)
    SELECT c.organization_id, c.id, c.link_id, c.country_code, c.utm_campaign, 500 + (g * 37) % 20000,
           CASE WHEN g % 20 = 0 THEN 500 ELSE 0 END, (ARRAY['USD','EUR','GBP'])[1 + g % 3], 'Purchase', 'inv_' || g,
           (ARRAY['api','stripe','shopify'])[1 + (g / 7) % 3]::"SaleSource", now() - ((g * 13) % 365) * interval '1 day' - (g % 86400) * interval '1 second'
      FROM generate_series(0, ${sales - 1}) g
      JOIN customers c ON c.organization_id = ${org.id}::uuid AND c.external_id = 'cus_' || (g % ${CUSTOMERS})`;
  await env.prisma.$executeRaw`UPDATE customers c SET first_sale_at = s.first FROM (SELECT customer_id, min(created_at) AS first FROM sales GROUP BY 1) s WHERE s.customer_id = c.id`;
  // The rollups, as the write path grows them (one lead per customer under source api).
  await env.prisma.$executeRaw`
    INSERT INTO conversion_daily (organization_id, day, link_id, source, country_code, utm_campaign, currency, sales, amount, refunded)
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, link_id, source::text, country_code, utm_campaign, currency, count(*), sum(amount), sum(refunded)
      FROM sales GROUP BY 1, 2, 3, 4, 5, 6, 7`;
  await env.prisma.$executeRaw`
    INSERT INTO conversion_daily (organization_id, day, link_id, source, country_code, utm_campaign, currency, leads)
    SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, link_id, 'api', country_code, utm_campaign, '', count(*) FROM customers GROUP BY 1, 2, 3, 4, 5, 6, 7`;
  await env.prisma.$executeRaw`
    INSERT INTO conversion_org_daily (organization_id, day, source, currency, leads, sales, amount, refunded)
    SELECT organization_id, day, source, currency, sum(leads), sum(sales), sum(amount), sum(refunded) FROM conversion_daily GROUP BY 1, 2, 3, 4`;
  await env.prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT ${org.id}::uuid, l, (now() AT TIME ZONE 'UTC')::date - d, 'total', '', 50 FROM unnest(${links}::uuid[]) l CROSS JOIN generate_series(0, 364) d`;
  await vacuumAnalyze(env.prisma, ['sales', 'customers', 'conversion_daily', 'conversion_org_daily', 'click_rollups']);
  const [check] = await env.prisma.$queryRaw<Array<{ sales: number; rollup: number; orgRollup: number; rows: number }>>`
    SELECT (SELECT count(*)::int FROM sales) AS sales, (SELECT sum(sales)::int FROM conversion_daily) AS rollup,
           (SELECT sum(sales)::int FROM conversion_org_daily) AS "orgRollup", (SELECT count(*)::int FROM conversion_daily) AS rows`;
  if (check.sales !== sales || check.rollup !== sales || check.orgRollup !== sales) throw new Error(`seeded ${JSON.stringify(check)}, expected ${sales}`);
  log('seeded', { ...check, s: ((performance.now() - t) / 1000).toFixed(1) });

  const results = await wrkApiPaths(env.config, env.prisma, key, [
    ['summary, days=365 (by day)', '/api/analytics/conversions?days=365'],
    ['summary, days=30 (by day)', '/api/analytics/conversions?days=30'],
    ['summary, days=365, groupBy=source', '/api/analytics/conversions?days=365&groupBy=source'],
    ['summary, days=365, groupBy=link', '/api/analytics/conversions?days=365&groupBy=link'],
    ['summary, days=365, linkId', `/api/analytics/conversions?days=365&linkId=${links[0]}`],
  ], seconds);
  print({ bench: 'conversions-summary', tool: `wrk -t1 -c1 -d${seconds}s`, sales, customers: CUSTOMERS, links: LINKS, rollupRows: check.rows, results });
});
