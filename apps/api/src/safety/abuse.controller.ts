import { Body, Inject, Module, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ApiController, clientIp, Endpoint } from '@dl/platform/http';
import { AbuseDeskModule, AbuseReportsService } from '@dl/safety';
import { AbuseReportCreatedDto, CreateAbuseReportDto } from './abuse.dto';

/** Abuse reports from anyone (decisions §22): no credentials, 10 an hour per client IP. */
@ApiController('abuse/reports', 'abuse')
export class AbuseController {
  constructor(
    private readonly reports: AbuseReportsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Endpoint.post({
    summary: 'Report a short link of this service (phishing, malware, spam, illegal, other)',
    public: true,
    status: 201,
    response: AbuseReportCreatedDto,
    errors: { 400: 'Validation error (the URL is not a short link of this service)', 429: 'Too many reports from this address' },
  })
  create(@Body() body: CreateAbuseReportDto, @Req() request: FastifyRequest): Promise<AbuseReportCreatedDto> {
    return this.reports.file(body, clientIp(request.headers, request.raw.socket?.remoteAddress ?? request.ip, this.config.TRUSTED_CLIENT_IP_HEADER));
  }
}

@Module({ imports: [AbuseDeskModule], controllers: [AbuseController] })
export class AbuseApiModule {}
