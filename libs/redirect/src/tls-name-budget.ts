import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';

/**
 * One `ask` of Caddy's on-demand TLS for a name of an organization: a name already seen answers
 * yes; a new one only while the organization's count of new names for this UTC day is under the
 * limit, and then it is counted and remembered, in one script (concurrent asks cannot overshoot).
 * KEYS: the organization's seen names (a set), its count for the day; ARGV: name, limit, count TTL (s).
 */
const ASK = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('INCR', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
return 1`;

type AskCommand = (seenKey: string, dayKey: string, name: string, limit: number, ttl: number) => Promise<number>;

/**
 * The certificate budget of branded domains (decisions §22): at most `TLS_NEW_NAMES_PER_ORG_PER_DAY`
 * names a day per organization that the edge has never said yes to; a name said yes to once keeps
 * its yes (renewals, a restarted Caddy). Redis down: not limited (the domain table still decides).
 */
@Injectable()
export class TlsNameBudget {
  private readonly logger = new Logger('TlsNameBudget');
  private readonly limit: number;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.TLS_NEW_NAMES_PER_ORG_PER_DAY;
    this.redis.client.defineCommand('dlTlsAsk', { numberOfKeys: 2, lua: ASK });
  }

  /** May a certificate be issued for `name` (a serving domain of `organizationId`) now? */
  async allow(organizationId: string, name: string, now = new Date()): Promise<boolean> {
    try {
      const command = (this.redis.client as unknown as { dlTlsAsk: AskCommand }).dlTlsAsk.bind(this.redis.client);
      const tag = `tls:${organizationId}`;
      const day = now.toISOString().slice(0, 10);
      const seen = this.redis.slotKey(tag, 'tls', 'names', organizationId);
      const count = this.redis.slotKey(tag, 'tls', 'new', organizationId, day);
      return (await command(seen, count, name, this.limit, 2 * 24 * 3600)) === 1;
    } catch (err) {
      this.logger.warn({ err }, 'TLS name budget unavailable');
      return true;
    }
  }
}
