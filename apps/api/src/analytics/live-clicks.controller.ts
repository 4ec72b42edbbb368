import { Header, Query, StreamableFile } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LiveClicksService } from '@dl/analytics';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';
import { IsUuidField } from '@dl/platform/validation';

export class LiveClicksQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this link's clicks (another organization's link streams nothing)" })
  @IsOptional()
  @IsUuidField()
  linkId?: string;
}

const EXAMPLE =
  ': open\n\nevent: click\ndata: {"id":"…","linkId":"…","shortCode":"spring","clickedAt":"2026-06-10T10:00:00.000Z","countryCode":"DE",' +
  '"city":"Berlin","device":"mobile","os":"iOS","browser":"Mobile Safari","referrerHost":"t.co"}\n\n';

@ApiController('api/analytics', 'analytics', Auth(Permissions.read))
export class LiveClicksController {
  constructor(private readonly live: LiveClicksService) {}

  @Header('Cache-Control', 'no-cache, no-transform')
  @Header('X-Accel-Buffering', 'no')
  @Endpoint.get('live', {
    summary: 'Live clicks as Server-Sent Events (`event: click`), within 2 s of the visit; at most 20 streams per organization',
    produces: ['text/event-stream'],
    success: {
      description: 'A stream of `event: click` with `data:` {id, linkId, shortCode, clickedAt, countryCode, city, device, os, browser, referrerHost}',
      content: { 'text/event-stream': { schema: { type: 'string', example: EXAMPLE } } },
    },
    errors: { 400: 'Validation error (linkId)', 429: 'At most 20 live streams per organization' },
  })
  async stream(@CurrentPrincipal() principal: Principal, @Query() query: LiveClicksQueryDto): Promise<StreamableFile> {
    const body = await this.live.open(principal.organizationId, query.linkId?.toLowerCase());
    return new StreamableFile(body, { type: 'text/event-stream' });
  }
}
