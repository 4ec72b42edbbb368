import { Body, Controller, Get, Header, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { IngestService, PixelEventDto } from '@dl/sdk';
import { PIXEL_SCRIPT } from './pixel-script';

/** Website pixel (CORS open; the public site key travels in the body). */
@Controller('api/pixel/v1')
export class PixelController {
  constructor(private readonly ingest: IngestService) {}

  @Get('script.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  script(): string {
    return PIXEL_SCRIPT;
  }

  @Post('event')
  @HttpCode(202)
  async event(@Body() dto: PixelEventDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ accepted: true }> {
    const { result, rateLimit } = await this.ingest.pixelEvent(dto);
    reply.headers(rateLimit.headers);
    return result;
  }
}
