import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal, RateLimiter } from '@dl/auth';
import { TooManyRequestsError } from '@dl/platform/http';
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
  QrQueryDto,
  QrService,
  UpdateLinkDto,
} from '@dl/links';
import { BulkCreateLinksBody, BulkDeleteLinksBody, BulkUpdateLinksBody, ListLinksQueryDto } from './links.dto';
import { SuccessResponseDto } from '@dl/platform/http';
import { UuidParamPipe } from './uuid-param.pipe';
import { ErrorBodyDoc } from '../openapi/error-body.doc';

const AUTH_REQUIRED = { missingMessage: 'Authentication required' };

@ApiTags('links')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/links')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly bulk: LinksBulkService,
    private readonly qr: QrService,
    private readonly rateLimiter: RateLimiter,
  ) {}

  @Post()
  @HttpCode(201)
  @Auth(Permissions.linksWrite)
  @ApiOperation({ summary: 'Create a link (Cloud snake_case shape with short_url)' })
  @ApiCreatedResponse({ type: LinkCreateResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Template or project not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'Short code already taken' })
  @ApiBody({ type: CreateLinkDto })
  // Readonly<>: the global pipe leaves the body to CreateLinkBodyPipe (same rules, fast path for common bodies).
  create(@CurrentPrincipal() principal: Principal, @Body(CreateLinkBodyPipe) dto: Readonly<CreateLinkDto>): Promise<LinkCreateResponseDto> {
    return this.links.create(principal, dto);
  }

  @Get()
  @Auth(Permissions.read)
  @ApiOperation({
    summary:
      'Links, newest first: id, domain, shortCode, shortUrl, title, originalUrl, clickCount, templateSlug, createdAt. ' +
      'Filters combine; with limit one page and X-Next-Cursor when more match',
  })
  @ApiOkResponse({
    type: [LinkListItemDto],
    headers: { 'X-Next-Cursor': { description: 'Cursor of the next page (only with limit, only when more links match)', schema: { type: 'string' } } },
  })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Project not found' })
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

  @Post('bulk-create')
  @HttpCode(201)
  @Auth(Permissions.linksWrite)
  @ApiBody({ type: BulkCreateLinksBody })
  @ApiOperation({ summary: 'Create up to 100 links, all or nothing' })
  @ApiCreatedResponse({ type: BulkCreateLinksResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Template or project not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'Short code already taken' })
  bulkCreate(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkCreate(principal, body);
  }

  @Post('bulk-update')
  @HttpCode(200)
  @Auth(Permissions.linksWrite)
  @ApiBody({ type: BulkUpdateLinksBody })
  @ApiOperation({ summary: 'Update up to 100 links, all or nothing' })
  @ApiOkResponse({ type: BulkUpdateLinksResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link, template or project not found' })
  bulkUpdate(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkUpdate(principal, body);
  }

  @Post('bulk-delete')
  @HttpCode(200)
  @Auth(Permissions.linksWrite)
  @ApiBody({ type: BulkDeleteLinksBody })
  @ApiOperation({ summary: 'Delete up to 100 links (unknown ids are ignored)' })
  @ApiOkResponse({ type: BulkDeleteLinksResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  bulkDelete(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkDelete(principal, body);
  }

  @Get(':id/qr')
  @ApiOperation({
    summary: 'QR code of a link\'s short URL (PNG or SVG)',
    description:
      'Cached images are not rate limited; a variant that has to be rendered counts against the organization\'s ' +
      'rate limit (and then carries the X-RateLimit-* headers).',
  })
  @Auth(Permissions.read, { rateLimit: false })
  @ApiProduces('image/png', 'image/svg+xml')
  @ApiOkResponse({
    description: 'A QR code of the short URL (cached)',
    content: {
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/svg+xml': { schema: { type: 'string' } },
    },
  })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link not found' })
  async qrCode(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Query() query: QrQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const image = await this.qr.render(principal.organizationId, id, query, () => this.chargeRender(principal, reply));
    reply.header('content-type', image.contentType).header('cache-control', 'private, max-age=86400');
    return image.body;
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a link with every field' })
  @Auth(Permissions.read, AUTH_REQUIRED)
  @ApiOkResponse({ type: LinkResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link not found' })
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<LinkResponseDto> {
    return this.links.get(principal.organizationId, id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a link (only the fields sent change)' })
  @Auth(Permissions.linksWrite)
  @ApiOkResponse({ type: LinkResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link, template or project not found' })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateLinkDto,
  ): Promise<LinkResponseDto> {
    return this.links.update(principal, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a link (its short URL stops at once)' })
  @Auth(Permissions.linksWrite, AUTH_REQUIRED)
  @ApiOkResponse({ type: SuccessResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link not found' })
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
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
