import { Controller, Get, Inject, Module, Param, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { normalizeDomainName } from '@dl/domains';
import { LinkNotFoundError } from '@dl/links';
import { APP_CONFIG, AppConfig, serviceHosts } from '@dl/platform/config';
import { PublicStats, PublicStatsModule, PublicStatsService } from '@dl/redirect';
import { ErrorBodyDoc } from '../openapi/error-body.doc';

class PublicDateClicksDoc {
  @ApiProperty({ example: '2026-11-25' }) date!: string;
  @ApiProperty() clicks!: number;
}
class PublicCountryClicksDoc {
  @ApiProperty({ example: 'US' }) countryCode!: string;
  @ApiProperty({ example: 'United States' }) country!: string;
  @ApiProperty() clicks!: number;
}
class PublicDeviceClicksDoc {
  @ApiProperty({ example: 'mobile' }) device!: string;
  @ApiProperty() clicks!: number;
}
export class PublicStatsDoc {
  @ApiProperty() shortCode!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ description: 'Every non-bot click since the link was made' }) totalClicks!: number;
  @ApiProperty({ type: [PublicDateClicksDoc], description: 'The last 30 days (UTC), oldest first' }) clicksByDate!: PublicDateClicksDoc[];
  @ApiProperty({ type: [PublicCountryClicksDoc], description: 'Last 30 days, most clicks first' }) clicksByCountry!: PublicCountryClicksDoc[];
  @ApiProperty({ type: [PublicDeviceClicksDoc], description: 'Last 30 days' }) clicksByDevice!: PublicDeviceClicksDoc[];
}

/**
 * Public stats JSON (decisions §16): no credentials, no plan rate limit, cached 60 s. A link
 * that is not public (or unknown, inactive, deleted) is 404 `Link not found`, like a missing one.
 */
@ApiTags('public')
@Controller('api/public/stats')
export class PublicStatsController {
  private readonly ownHosts: ReadonlySet<string>;

  constructor(
    private readonly stats: PublicStatsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHosts = serviceHosts(config);
  }

  @Get(':domain/:code')
  @ApiOperation({
    summary: "A public link's stats: total clicks, the last 30 days by date, country and device (no personal data)",
    security: [],
  })
  @ApiOkResponse({ type: PublicStatsDoc })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'No public link with this code on this domain' })
  async get(@Param('domain') domain: string, @Param('code') code: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<PublicStats> {
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
