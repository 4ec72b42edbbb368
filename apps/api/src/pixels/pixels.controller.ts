import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { CreatePixelSiteDto, PixelSiteResponse, PixelSitesService } from '@dl/sdk';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { PixelSiteResponseDoc, PixelSuccessResponseDoc } from './pixels.response-doc';

@ApiTags('pixels')
@Controller('api/pixels')
@Auth(Permissions.pixelsManage)
@ApiUnauthorizedResponse({ type: ErrorBodyDoc })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Missing permission or plan feature' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc })
export class PixelsController {
  constructor(private readonly sites: PixelSitesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a website for the pixel; answers its public `siteKey`' })
  @ApiCreatedResponse({ type: PixelSiteResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePixelSiteDto): Promise<PixelSiteResponse> {
    return this.sites.create(principal.organizationId, dto);
  }

  @Get()
  @ApiOperation({ summary: 'Pixel sites of the organization' })
  @ApiOkResponse({ type: [PixelSiteResponseDoc] })
  list(@CurrentPrincipal() principal: Principal): Promise<PixelSiteResponse[]> {
    return this.sites.list(principal.organizationId);
  }

  @Delete(':id')
  @ApiOkResponse({ type: PixelSuccessResponseDoc })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Pixel site not found' })
  @ApiOperation({ summary: 'Delete a pixel site (its key stops working at once; its events are kept)' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<{ success: true }> {
    return this.sites.remove(principal.organizationId, id);
  }
}
