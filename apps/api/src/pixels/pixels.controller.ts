import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { CreatePixelSiteDto, PixelSiteResponse, PixelSitesService } from '@dl/sdk';

@ApiTags('pixels')
@Controller('api/pixels')
@Auth(Permissions.pixelsManage)
export class PixelsController {
  constructor(private readonly sites: PixelSitesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a website for the pixel; answers its public `siteKey`' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePixelSiteDto): Promise<PixelSiteResponse> {
    return this.sites.create(principal.organizationId, dto);
  }

  @Get()
  @ApiOperation({ summary: 'Pixel sites of the organization' })
  list(@CurrentPrincipal() principal: Principal): Promise<PixelSiteResponse[]> {
    return this.sites.list(principal.organizationId);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a pixel site (its key stops working at once; its events are kept)' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<{ success: true }> {
    return this.sites.remove(principal.organizationId, id);
  }
}
