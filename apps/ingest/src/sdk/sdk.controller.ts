import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { clientIp } from '@dl/platform/http';
import {
  AppCredential,
  AttributionService,
  CurrentApp,
  IngestService,
  SdkEventBatchDto,
  SdkEventDto,
  SdkInstallDto,
  SdkInstallResponse,
  SdkOpenDto,
  SdkTokenGuard,
} from '@dl/sdk';

/** What the install route reads of a request: Fastify's or the bare `node:http` one. */
export interface SdkHttpRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string };
}

/** Mobile SDK ingestion (`Authorization: Bearer dla_…`). */
@Controller('api/sdk/v1')
@UseGuards(SdkTokenGuard)
export class SdkController {
  constructor(
    private readonly attribution: AttributionService,
    private readonly ingest: IngestService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Deferred deep link: answers with the attribution at once (idempotent per installId). The
   * fast path (sdk.fast-path.ts) passes `gate`, the rate limit still being counted: the
   * attribution's reads run meanwhile and it awaits the gate before any write.
   */
  @Post('install')
  @HttpCode(200)
  install(@CurrentApp() app: AppCredential, @Body() dto: SdkInstallDto, @Req() req: SdkHttpRequest, gate?: Promise<unknown>): Promise<SdkInstallResponse> {
    return this.attribution.attribute(app, dto, clientIp(req.headers, req.socket.remoteAddress, this.config.TRUSTED_CLIENT_IP_HEADER), new Date(), gate);
  }

  @Post('open')
  @HttpCode(202)
  open(@CurrentApp() app: AppCredential, @Body() dto: SdkOpenDto): Promise<{ accepted: true }> {
    return this.ingest.open(app, dto);
  }

  @Post('event')
  @HttpCode(202)
  async event(@CurrentApp() app: AppCredential, @Body() dto: SdkEventDto): Promise<{ accepted: true; id: string }> {
    const { ids } = await this.ingest.trackEvents(app, [dto], false);
    return { accepted: true, id: ids[0] };
  }

  /** Up to 100 events in one call (the SDK's batches); all-or-nothing. */
  @Post('events')
  @HttpCode(202)
  events(@CurrentApp() app: AppCredential, @Body() dto: SdkEventBatchDto): Promise<{ accepted: number; ids: string[] }> {
    return this.ingest.trackEvents(app, dto.events, true);
  }
}
