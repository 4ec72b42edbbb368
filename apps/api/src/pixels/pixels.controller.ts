import { Body, Param } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint, SuccessResponseDto } from '@dl/platform/http';
import { CreatePixelSiteDto, PixelSiteResponseDto, PixelSitesService } from '@dl/sdk';

@ApiController('api/pixels', 'pixels', Auth(Permissions.pixelsManage))
export class PixelsController {
  constructor(private readonly sites: PixelSitesService) {}

  @Endpoint.post({
    summary: 'Register a website for the pixel; answers its public `siteKey`',
    status: 201,
    response: PixelSiteResponseDto,
    errors: { 400: 'Validation error' },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePixelSiteDto): Promise<PixelSiteResponseDto> {
    return this.sites.create(principal.organizationId, dto);
  }

  @Endpoint.get({ summary: 'Pixel sites of the organization', response: [PixelSiteResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<PixelSiteResponseDto[]> {
    return this.sites.list(principal.organizationId);
  }

  /** Any id that is not one of the organization's sites, a malformed one included, is `Pixel site not found`. */
  @Endpoint.delete(':id', {
    summary: 'Delete a pixel site (its key stops working at once; its events are kept)',
    response: SuccessResponseDto,
    errors: { 404: 'Pixel site not found' },
  })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SuccessResponseDto> {
    return this.sites.remove(principal.organizationId, id);
  }
}
