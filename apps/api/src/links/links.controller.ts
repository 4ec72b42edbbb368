import { Body, Header, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal, RateLimiter } from '@dl/auth';
import {
  BulkCreateLinksResponseDto,
  BulkDeleteLinksResponseDto,
  BulkUpdateLinksResponseDto,
  CreateLinkBodyPipe,
  CreateLinkDto,
  LinkCreateResponseDto,
  LinkListItemDto,
  LinkResponseDto,
  LinksBulkService,
  LinksService,
  QrLogoResponseDto,
  QrQueryDto,
  QrService,
  UpdateLinkDto,
} from '@dl/links';
import { ApiController, Endpoint, SuccessResponseDto, TooManyRequestsError, UuidParam } from '@dl/platform/http';
import { BulkCreateLinksBody, BulkDeleteLinksBody, BulkUpdateLinksBody, ListLinksQueryDto } from './links.dto';
import { readQrLogoUpload } from './qr-logo-upload';

const AUTH_REQUIRED = { missingMessage: 'Authentication required' };
const VALIDATION = { 400: 'Validation error' } as const;
const LINK_ERRORS = { ...VALIDATION, 404: 'Link not found' } as const;
const WRITE_ERRORS = { ...VALIDATION, 404: 'Template or project not found', 409: 'Short code already taken' } as const;
const UPDATE_ERRORS = { ...VALIDATION, 404: 'Link, template or project not found' } as const;

@ApiController('api/links', 'links')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly bulk: LinksBulkService,
    private readonly qr: QrService,
    private readonly rateLimiter: RateLimiter,
  ) {}

  @Endpoint.post({
    access: Auth(Permissions.linksWrite),
    summary: 'Create a link (Cloud snake_case shape with short_url)',
    status: 201,
    response: LinkCreateResponseDto,
    body: CreateLinkDto,
    errors: WRITE_ERRORS,
  })
  // Readonly<>: the global pipe leaves the body to CreateLinkBodyPipe (the same rules, compiled from the DTO once).
  create(@CurrentPrincipal() principal: Principal, @Body(CreateLinkBodyPipe) dto: Readonly<CreateLinkDto>): Promise<LinkCreateResponseDto> {
    return this.links.create(principal, dto);
  }

  @Endpoint.get({
    access: Auth(Permissions.read),
    summary:
      'Links, newest first: id, domain, shortCode, shortUrl, title, originalUrl, clickCount, templateSlug, createdAt. ' +
      'Filters combine; with limit one page and X-Next-Cursor when more match',
    response: [LinkListItemDto],
    success: {
      headers: { 'X-Next-Cursor': { description: 'Cursor of the next page (only with limit, only when more links match)', schema: { type: 'string' } } },
    },
    errors: { ...VALIDATION, 404: 'Project not found' },
  })
  @Header('content-type', 'application/json; charset=utf-8')
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListLinksQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const page = await this.links.listPage(principal.organizationId, {
      projectId: query.projectId,
      search: query.search,
      tags: query.tag,
      domain: query.domain,
      isActive: query.isActive,
      limit: query.limit,
      cursor: query.cursor,
    });
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return page.json;
  }

  @Endpoint.post('bulk-create', {
    access: Auth(Permissions.linksWrite),
    summary: 'Create up to 100 links, all or nothing',
    status: 201,
    body: BulkCreateLinksBody,
    response: BulkCreateLinksResponseDto,
    errors: WRITE_ERRORS,
  })
  bulkCreate(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkCreate(principal, body);
  }

  @Endpoint.post('bulk-update', { access: Auth(Permissions.linksWrite), summary: 'Update up to 100 links, all or nothing', body: BulkUpdateLinksBody, response: BulkUpdateLinksResponseDto, errors: UPDATE_ERRORS })
  bulkUpdate(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkUpdate(principal, body);
  }

  @Endpoint.post('bulk-delete', {
    access: Auth(Permissions.linksWrite),
    summary: 'Delete up to 100 links (unknown ids are ignored)',
    body: BulkDeleteLinksBody,
    response: BulkDeleteLinksResponseDto,
    errors: VALIDATION,
  })
  bulkDelete(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkDelete(principal, body);
  }

  @Endpoint.get(':id/qr', {
    access: Auth(Permissions.read, { rateLimit: false }),
    summary: "QR code of a link's short URL (PNG or SVG)",
    description:
      "Cached images are not rate limited; a variant that has to be rendered counts against the organization's " +
      'rate limit (and then carries the X-RateLimit-* headers).',
    produces: ['image/png', 'image/svg+xml'],
    success: {
      description: 'A QR code of the short URL (cached)',
      content: {
        'image/png': { schema: { type: 'string', format: 'binary' } },
        'image/svg+xml': { schema: { type: 'string' } },
      },
    },
    errors: LINK_ERRORS,
  })
  async qrCode(
    @CurrentPrincipal() principal: Principal,
    @UuidParam() id: string,
    @Query() query: QrQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const image = await this.qr.render(principal.organizationId, id, query, () => this.chargeRender(principal, reply));
    reply.header('content-type', image.contentType).header('cache-control', 'private, max-age=86400');
    return image.body;
  }

  @Endpoint.get(':id/qr/logo', { access: Auth(Permissions.read), summary: "The link's QR logo (null when it has none)", response: QrLogoResponseDto, errors: LINK_ERRORS })
  qrLogo(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<QrLogoResponseDto> {
    return this.qr.getLogo(principal.organizationId, id);
  }

  @Endpoint.put(':id/qr/logo', {
    access: Auth(Permissions.linksWrite),
    summary: "Set the link's QR logo: drawn centred in its QR codes, with error correction H",
    description:
      'A PNG or SVG of at most 100 KB (the type is read from the bytes; an SVG must hold no script, event handler, ' +
      'foreignObject, entity or external reference). For an SVG, `raster` is its PNG rendering, drawn in PNG codes; without one ' +
      'the server renders the SVG (640 px on its longest side, text only in embedded fonts), and an SVG that does not render within 2 seconds is refused. ' +
      "The link's cached QR images are dropped.",
    consumes: ['multipart/form-data'],
    body: {
      schema: {
        type: 'object',
        required: ['logo'],
        properties: {
          logo: { type: 'string', format: 'binary', description: 'PNG or SVG, at most 100 KB' },
          raster: { type: 'string', format: 'binary', description: 'For an SVG logo: its PNG rendering, at most 100 KB (optional: the server renders the SVG)' },
        },
      },
    },
    response: QrLogoResponseDto,
    errors: { 400: 'Validation error: not a PNG or SVG, over 100 KB, or an unsafe SVG (validation names the part)', 404: 'Link not found' },
  })
  async setQrLogo(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Req() request: FastifyRequest): Promise<QrLogoResponseDto> {
    const upload = await readQrLogoUpload(request);
    return this.qr.setLogo(principal.organizationId, id, upload.logo, upload.raster);
  }

  @Endpoint.delete(':id/qr/logo', { access: Auth(Permissions.linksWrite), summary: "Remove the link's QR logo (its cached QR images are dropped)", response: SuccessResponseDto, errors: LINK_ERRORS })
  removeQrLogo(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.qr.removeLogo(principal.organizationId, id);
  }

  @Endpoint.get(':id', { access: Auth(Permissions.read, AUTH_REQUIRED), summary: 'Get a link with every field', response: LinkResponseDto, errors: LINK_ERRORS })
  get(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<LinkResponseDto> {
    return this.links.get(principal.organizationId, id);
  }

  @Endpoint.put(':id', { access: Auth(Permissions.linksWrite), summary: 'Update a link (only the fields sent change)', response: LinkResponseDto, errors: UPDATE_ERRORS })
  update(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Body() dto: UpdateLinkDto): Promise<LinkResponseDto> {
    return this.links.update(principal, id, dto);
  }

  @Endpoint.delete(':id', { access: Auth(Permissions.linksWrite, AUTH_REQUIRED), summary: 'Delete a link (its short URL stops at once)', response: SuccessResponseDto, errors: LINK_ERRORS })
  delete(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.links.delete(principal.organizationId, id);
  }

  /** Decisions §14: a render (cache miss) counts against the organization's rate limit. */
  private async chargeRender(principal: Principal, reply: FastifyReply): Promise<void> {
    if (!this.rateLimiter.enabled) return;
    const rl = await this.rateLimiter.consume(principal);
    const headers = {
      'X-RateLimit-Limit': String(rl.limit),
      'X-RateLimit-Remaining': String(rl.remaining),
      'X-RateLimit-Reset': String(rl.reset),
    };
    reply.headers(headers);
    if (!rl.allowed) throw new TooManyRequestsError(rl.retryAfter, headers);
  }
}
