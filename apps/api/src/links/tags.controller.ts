import { Header } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { LinksService, TagsResponseDto } from '@dl/links';
import { ApiController, Endpoint } from '@dl/platform/http';

@ApiController('api/tags', 'links')
export class TagsController {
  constructor(private readonly links: LinksService) {}

  @Endpoint.get({ access: Auth(Permissions.read), summary: "The organization's link tags with how many links carry each, most used first", response: TagsResponseDto })
  @Header('content-type', 'application/json; charset=utf-8')
  list(@CurrentPrincipal() principal: Principal): Promise<string> {
    return this.links.tagsJson(principal.organizationId);
  }
}
