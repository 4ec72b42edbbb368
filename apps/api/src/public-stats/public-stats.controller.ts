import { Inject, Module, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { normalizeDomainName } from '@dl/domains';
import { LinkNotFoundError } from '@dl/links';
import { APP_CONFIG, AppConfig, serviceHosts } from '@dl/platform/config';
import { ApiController, Endpoint } from '@dl/platform/http';
import { PublicStatsDto, PublicStatsModule, PublicStatsService } from '@dl/redirect';

/**
 * Public stats JSON (decisions §16): no credentials, no plan rate limit, cached 60 s. A link
 * that is not public (or unknown, inactive, deleted) is 404 `Link not found`, like a missing one.
 */
@ApiController('api/public/stats', 'public')
export class PublicStatsController {
  private readonly ownHosts: ReadonlySet<string>;

  constructor(
    private readonly stats: PublicStatsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHosts = serviceHosts(config);
  }

  @Endpoint.get(':domain/:code', {
    summary: "A public link's stats: total clicks, the last 30 days by date, country and device (no personal data)",
    public: true,
    response: PublicStatsDto,
    errors: { 404: 'No public link with this code on this domain' },
  })
  async get(@Param('domain') domain: string, @Param('code') code: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<PublicStatsDto> {
    const host = domain.toLowerCase();
    const name = this.ownHosts.has(host) ? '' : normalizeDomainName(host);
    const found = name === null ? null : await this.stats.find(this.ownHosts.has(name) ? '' : name, code);
    if (!found) throw new LinkNotFoundError();
    reply.header('cache-control', 'public, max-age=60');
    return found;
  }
}

@Module({ imports: [PublicStatsModule], controllers: [PublicStatsController] })
export class PublicStatsApiModule {}
