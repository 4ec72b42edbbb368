import { Body } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { FdlShortLinkRequestDto, FdlShortLinkResponseDto, FdlShortLinksService } from '@dl/links';
import { ApiController, Endpoint } from '@dl/platform/http';

/** Firebase Dynamic Links' link shortener (decisions §26): an app switches by changing its host and key. */
@ApiController('v1', 'migrations')
export class FdlShortLinksController {
  constructor(private readonly fdl: FdlShortLinksService) {}

  @Auth(Permissions.linksWrite, { queryKey: true })
  @Endpoint.post('shortLinks', {
    summary: "Create a short link from a Firebase Dynamic Links request (FDL's request and response shapes)",
    query: { key: { description: 'A `dl_` API key, as FDL clients send it (instead of `Authorization: Bearer`)' } },
    body: FdlShortLinkRequestDto,
    response: FdlShortLinkResponseDto,
    success: { description: 'The short link on the domain of domainUriPrefix (or of longDynamicLink), its preview, and warnings for parameters not applied' },
    errors: {
      400: 'No link, a link (or fallback) that is not http(s), a bad suffix option, or a domain that is not a verified domain of the organization',
      403: 'Link limit reached, or the key lacks links:write',
    },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: FdlShortLinkRequestDto): Promise<FdlShortLinkResponseDto> {
    return this.fdl.create(principal, body);
  }
}
