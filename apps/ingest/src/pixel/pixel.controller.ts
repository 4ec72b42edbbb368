import { Body, Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  async event(
    @Body() dto: PixelEventDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ accepted: true }> {
    // Decisions §14: the page must be on the site's domain (403 `Origin not allowed for this site`).
    const { origin, referer } = request.headers;
    const { result, rateLimit } = await this.ingest.pixelEvent(dto, new Date(), { origin, referer });
    reply.headers(rateLimit.headers);
    return result;
  }
}
