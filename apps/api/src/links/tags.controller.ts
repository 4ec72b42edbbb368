import { Controller, Get, Header } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { LinksService, TagsResponseDto } from '@dl/links';
import { Endpoint } from '@dl/platform/http';

@ApiTags('links')
@Controller('api/tags')
export class TagsController {
  constructor(private readonly links: LinksService) {}

  @Get()
  @Auth(Permissions.read)
  @Endpoint({ summary: "The organization's link tags with how many links carry each, most used first", response: TagsResponseDto })
  @Header('content-type', 'application/json; charset=utf-8')
  list(@CurrentPrincipal() principal: Principal): Promise<string> {
    return this.links.tagsJson(principal.organizationId);
  }
}
