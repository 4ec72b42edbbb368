import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  CreateLinkDto,
  LinkCreateResponse,
  LinkResponse,
  LinksBulkService,
  LinksService,
  QrQueryDto,
  QrService,
  UpdateLinkDto,
} from '@dl/links';
import { BulkCreateLinksBody, BulkDeleteLinksBody, BulkUpdateLinksBody, ListLinksQueryDto } from './links.dto';
import { UuidParamPipe } from './uuid-param.pipe';

const AUTH_REQUIRED = { missingMessage: 'Authentication required' };

@ApiTags('links')
@Controller('api/links')
export class LinksController {
  constructor(
    private readonly links: LinksService,
    private readonly bulk: LinksBulkService,
    private readonly qr: QrService,
  ) {}

  @Post()
  @HttpCode(201)
  @Auth(Permissions.linksWrite)
  @ApiOperation({ summary: 'Create a link (Cloud snake_case shape with short_url)' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateLinkDto): Promise<LinkCreateResponse> {
    return this.links.create(principal, dto);
  }

  @Get()
  @Auth(Permissions.read)
  @ApiOperation({ summary: 'All links, newest first: id, shortCode, title, originalUrl, clickCount, templateSlug, createdAt' })
  @Header('content-type', 'application/json; charset=utf-8')
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListLinksQueryDto): Promise<string> {
    return this.links.listJson(principal.organizationId, query.projectId);
  }

  @Post('bulk-create')
  @HttpCode(201)
  @Auth(Permissions.linksWrite)
  @ApiBody({ type: BulkCreateLinksBody })
  @ApiOperation({ summary: 'Create up to 100 links, all or nothing' })
  bulkCreate(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkCreate(principal, body);
  }

  @Post('bulk-update')
  @HttpCode(200)
  @Auth(Permissions.linksWrite)
  @ApiBody({ type: BulkUpdateLinksBody })
  @ApiOperation({ summary: 'Update up to 100 links, all or nothing' })
  bulkUpdate(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkUpdate(principal, body);
  }

  @Post('bulk-delete')
  @HttpCode(200)
  @Auth(Permissions.linksWrite)
  @ApiBody({ type: BulkDeleteLinksBody })
  @ApiOperation({ summary: 'Delete up to 100 links (unknown ids are ignored)' })
  bulkDelete(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.bulk.bulkDelete(principal, body);
  }

  @Get(':id/qr')
  @Auth(Permissions.read, { rateLimit: false })
  @ApiProduces('image/png', 'image/svg+xml')
  @ApiOkResponse({ description: 'A QR code of the short URL (cached)' })
  async qrCode(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Query() query: QrQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const image = await this.qr.render(principal.organizationId, id, query);
    reply.header('content-type', image.contentType).header('cache-control', 'private, max-age=86400');
    return image.body;
  }

  @Get(':id')
  @Auth(Permissions.read, AUTH_REQUIRED)
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<LinkResponse> {
    return this.links.get(principal.organizationId, id);
  }

  @Put(':id')
  @Auth(Permissions.linksWrite)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateLinkDto,
  ): Promise<LinkResponse> {
    return this.links.update(principal, id, dto);
  }

  @Delete(':id')
  @Auth(Permissions.linksWrite, AUTH_REQUIRED)
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
    return this.links.delete(principal.organizationId, id);
  }
}
