import { Controller, Get, Header } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { LinksService, TagsResponseDto } from '@dl/links';
import { ErrorBodyDoc } from '../openapi/error-body.doc';

@ApiTags('links')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/tags')
export class TagsController {
  constructor(private readonly links: LinksService) {}

  @Get()
  @Auth(Permissions.read)
  @ApiOperation({ summary: "The organization's link tags with how many links carry each, most used first" })
  @ApiOkResponse({ type: TagsResponseDto })
  @Header('content-type', 'application/json; charset=utf-8')
  list(@CurrentPrincipal() principal: Principal): Promise<string> {
    return this.links.tagsJson(principal.organizationId);
  }
}
