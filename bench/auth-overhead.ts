/**
 * Authenticated request overhead (goal: under 10%): a trivial GET answered by the api with no
 * credential, behind @Auth with a dl_ key and with a JWT, and with the Redis rate limiter. The api
 * runs in a child process; `wrk` drives it; scenarios alternate over rounds. Medians per scenario
 * of req/s and of the api process's CPU µs per request (/proc), and each ÷ no credential's.
 *
 *   node tools/scripts/run.js bench/auth-overhead.ts [--seconds 4] [--connections 10] [--rounds 5] [--only 'dl_ key,JWT']
 */
import { Controller, Get } from '@nestjs/common';
import { Auth, Permissions } from '@dl/auth';
import { alternate, arg, argText, print, runApiBench, summarize, warmUp } from './kit';

@Controller('bench')
class BenchController {
  @Get('open') open() { return { ok: true }; }
  @Get('auth') @Auth(Permissions.read, { rateLimit: false }) auth() { return { ok: true }; }
  @Get('auth-limited') @Auth(Permissions.read) limited() { return { ok: true }; }
}

// UNLIMITED with a limit no run reaches: the limiter does all its work but never refuses.
const config = { PLAN_LIMITS: JSON.stringify({ UNLIMITED: { requestsPerMinute: 100_000_000 } }) };

runApiBench(__filename, BenchController, { requestLog: false }, config, async ({ org, api }) => {
  const [seconds, connections, rounds] = [Math.min(arg('seconds', 4), 10), arg('connections', 10), arg('rounds', 5)];
  const only = argText('only', '').split(',').filter(Boolean);
  const key = { authorization: `Bearer ${org.owner.apiKey}` };
  const scenarios = (
    [
      ['no credential', '/bench/open', {}],
      ['dl_ key', '/bench/auth', key],
      ['JWT', '/bench/auth', { authorization: `Bearer ${org.owner.jwt}` }],
      ['dl_ key + rate limit (Redis)', '/bench/auth-limited', key],
    ] as Array<[string, string, Record<string, string>]>
  )
    .filter(([name], i) => i === 0 || only.length === 0 || only.includes(name))
    .map(([name, path, headers]) => ({ name, pids: [api.pid], load: { url: `${api.url}${path}`, headers, connections, seconds } }));
  await warmUp(scenarios);
  const runs = await alternate(scenarios, rounds);
  print({ bench: 'auth-overhead', tool: `wrk -t1 -c${connections} -d${seconds}s × ${rounds} rounds`, ...summarize(runs, 'no credential') });
});
