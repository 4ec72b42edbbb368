import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ValidationError } from '@dl/platform/http';
import { linkShortUrl } from './link.mapper';
import { LinksRepository, QrLogoRecord } from './links.repository';
import { LinkNotFoundError } from './links.errors';
import { QR_LOGO_MESSAGES, QrLogoType, sniffQrLogo } from './qr-logo';
import { QrLogoResponseDto, QrQueryDto } from './qr.dto';
import { QrProbeTask, QrRasterizeTask, QrRenderPool, QrRenderTask } from './qr-render-pool';

/**
 * How long an SVG logo may take to render: a logo renders in tens of milliseconds, and the render
 * threads are shared by every organization on the process.
 */
export const RASTERIZE_TIMEOUT_MS = 2_000;

export interface QrImage {
  contentType: string;
  body: Buffer;
}

/**
 * QR codes of a link's short URL, rendered once per variant and cached in `qr_images`.
 * A cache miss is charged first (`chargeMiss`: the organization's rate limit, decisions §14)
 * and rendered in a worker thread, so no burst of variants can hold the event loop.
 * Dot and corner styles and the link's logo (decisions §24) are part of the variant; a logo
 * forces error correction H, and changing or removing it drops the link's cached images.
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
    const dots = query.dots ?? 'square';
    const corners = query.corners ?? 'square';
    const logoHash = query.logo === false ? null : await this.repo.findQrLogoHash(organizationId, linkId);
    const variant = (hash: string | null) => {
      const ecc = hash ? 'H' : (query.ecc ?? 'M');
      const plain = [format, size, margin, fg, bg, ecc];
      // Variants without a style or logo keep the key they had before styles existed.
      return (dots === 'square' && corners === 'square' && !hash ? plain : [...plain, dots, corners, hash ?? '']).join('|');
    };

    const cached = await this.repo.findQrImage(organizationId, linkId, variant(logoHash));
    if (cached) return { contentType: cached.contentType, body: Buffer.from(cached.body) };
    const link = await this.repo.findById(organizationId, linkId);
    if (!link) throw new LinkNotFoundError();
    const logo = logoHash ? await this.repo.findQrLogo(organizationId, linkId) : null;
    await chargeMiss?.();
    if (logo && format === 'png' && logo.contentType === 'image/svg+xml' && !logo.raster) {
      // A logo stored before uploads rendered their SVGs: rendered now (the code is cached).
      logo.raster = await this.rasterize(logo.body, 'format');
    }

    const task: QrRenderTask = {
      text: linkShortUrl(link, this.config.SHORT_LINK_BASE_URL),
      format,
      options: { margin, width: size, errorCorrectionLevel: logo ? 'H' : (query.ecc ?? 'M'), color: { dark: `#${fg}ff`, light: `#${bg}ff` } },
    };
    if (logo || dots !== 'square' || corners !== 'square') {
      task.style = { dots, corners };
      if (logo) task.logo = { contentType: logo.contentType, body: logo.body, raster: logo.raster };
    }
    const image: QrImage = {
      contentType: format === 'svg' ? 'image/svg+xml' : 'image/png',
      body: await this.pool.render(task),
    };
    await this.repo.saveQrImage(organizationId, linkId, variant(logo?.sha256 ?? null), image.contentType, image.body);
    return image;
  }

  async getLogo(organizationId: string, linkId: string): Promise<QrLogoResponseDto> {
    const [link, logo] = await Promise.all([this.repo.findById(organizationId, linkId), this.repo.findQrLogo(organizationId, linkId)]);
    if (!link) throw new LinkNotFoundError();
    return { logo: logo && logoDto(logo) };
  }

  /**
   * Stores a link's logo: `logo` a PNG or SVG, `raster` (for an SVG only) its PNG rendering,
   * drawn in PNG codes. Types are sniffed from the bytes; PNGs are decoded (in a render thread)
   * to prove they are whole. Any refusal is 400 `Validation error` naming the part.
   */
  async setLogo(organizationId: string, linkId: string, body: Buffer, raster: Buffer | null): Promise<QrLogoResponseDto> {
    const contentType: QrLogoType = sniffQrLogo(body, 'logo');
    if (raster) {
      if (contentType !== 'image/svg+xml') throw new ValidationError({ raster: QR_LOGO_MESSAGES.rasterWithoutSvg });
      if (sniffQrLogo(raster, 'raster') !== 'image/png') throw new ValidationError({ raster: QR_LOGO_MESSAGES.rasterPng });
    }
    if (contentType === 'image/png') await this.probe(body, 'logo');
    if (raster) await this.probe(raster, 'raster');
    // An SVG sent alone is rendered here (the dashboard sends the browser's rendering).
    else if (contentType === 'image/svg+xml') raster = await this.rasterize(body, 'logo');
    const sha256 = createHash('sha256').update(body).update(raster ?? Buffer.alloc(0)).digest('hex');
    if (!(await this.repo.saveQrLogo(organizationId, linkId, { contentType, body, raster, sha256 }))) throw new LinkNotFoundError();
    return this.getLogo(organizationId, linkId);
  }

  async removeLogo(organizationId: string, linkId: string): Promise<{ success: true }> {
    if (!(await this.repo.findById(organizationId, linkId))) throw new LinkNotFoundError();
    await this.repo.deleteQrLogo(organizationId, linkId);
    return { success: true };
  }

  /** A PNG that does not decode → 400 naming `field`; a lost render thread stays a 500. */
  private async probe(png: Buffer, field: string): Promise<void> {
    await this.inThread({ probe: png }, field, QR_LOGO_MESSAGES.notImage);
  }

  /**
   * An SVG logo's PNG rendering; one that does not render, or not within RASTERIZE_TIMEOUT_MS
   * (an SVG can cost minutes of CPU: thousands of layered fills, filters), → 400 naming `field`.
   */
  private rasterize(svg: Uint8Array, field: string): Promise<Buffer> {
    return this.inThread({ rasterize: svg }, field, QR_LOGO_MESSAGES.unrenderableSvg, RASTERIZE_TIMEOUT_MS);
  }

  private async inThread(task: QrProbeTask | QrRasterizeTask, field: string, message: string, timeoutMs?: number): Promise<Buffer> {
    try {
      return await this.pool.render(task, timeoutMs);
    } catch (err) {
      if (/^QR render (thread lost|pool is closed)/.test((err as Error).message)) throw err;
      throw new ValidationError({ [field]: message });
    }
  }
}

function logoDto(logo: QrLogoRecord) {
  return {
    contentType: logo.contentType as QrLogoType,
    bytes: logo.body.length,
    rasterized: logo.contentType === 'image/png' || logo.raster !== null,
    sha256: logo.sha256,
    updatedAt: logo.updatedAt.toISOString(),
  };
}
