import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { linkShortUrl } from './link.mapper';
import { LinksRepository } from './links.repository';
import { LinkNotFoundError } from './links.errors';
import { QrQueryDto } from './qr.dto';
import { QrRenderPool } from './qr-render-pool';

export interface QrImage {
  contentType: string;
  body: Buffer;
}

/**
 * QR codes of a link's short URL, rendered once per variant and cached in `qr_images`.
 * A cache miss is charged first (`chargeMiss`: the organization's rate limit, decisions §14)
 * and rendered in a worker thread, so no burst of variants can hold the event loop.
 */
@Injectable()
export class QrService {
  constructor(
    private readonly repo: LinksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pool: QrRenderPool,
  ) {}

  async render(organizationId: string, linkId: string, query: QrQueryDto, chargeMiss?: () => Promise<void>): Promise<QrImage> {
    const format = query.format ?? 'png';
    const size = query.size ?? 512;
    const margin = query.margin ?? 2;
    const fg = (query.fg ?? '000000').toLowerCase();
    const bg = (query.bg ?? 'ffffff').toLowerCase();
    const ecc = query.ecc ?? 'M';
    const variant = [format, size, margin, fg, bg, ecc].join('|');

    const cached = await this.repo.findQrImage(organizationId, linkId, variant);
    if (cached) return { contentType: cached.contentType, body: Buffer.from(cached.body) };
    const link = await this.repo.findById(organizationId, linkId);
    if (!link) throw new LinkNotFoundError();
    await chargeMiss?.();

    const text = linkShortUrl(link, this.config.SHORT_LINK_BASE_URL);
    const options = {
      margin,
      width: size,
      errorCorrectionLevel: ecc,
      color: { dark: `#${fg}ff`, light: `#${bg}ff` },
    };
    const image: QrImage = {
      contentType: format === 'svg' ? 'image/svg+xml' : 'image/png',
      body: await this.pool.render({ text, format, options }),
    };
    await this.repo.saveQrImage(organizationId, linkId, variant, image.contentType, image.body);
    return image;
  }
}
