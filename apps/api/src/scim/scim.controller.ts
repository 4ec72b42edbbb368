import {
  ArgumentsHost,
  Body,
  CanActivate,
  Catch,
  Controller,
  Delete,
  ExceptionFilter,
  ExecutionContext,
  Get,
  HttpCode,
  Injectable,
  Logger,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ScimError, ScimService, ScimTokensService } from '@dl/scim';

type ScimRequest = FastifyRequest & { scimOrganizationId?: string };

/** SCIM's media type (RFC 7644 §3.1), of every answer of /scim/v2. */
const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/**
 * `Authorization: Bearer dls_…` → the token's organization, or 401 in SCIM's shape. An accepted
 * request's answer is typed as SCIM's JSON here, before the handler (Fastify serializes any `+json` type).
 */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(private readonly tokens: ScimTokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScimRequest>();
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? /^Bearer ([^\s]+)$/i.exec(header)?.[1] : undefined;
    const organizationId = token ? await this.tokens.organizationOf(token) : null;
    if (!organizationId) throw new ScimError(401, 'Missing, invalid or revoked SCIM token');
    request.scimOrganizationId = organizationId;
    context.switchToHttp().getResponse<FastifyReply>().header('content-type', SCIM_CONTENT_TYPE);
    return true;
  }
}

/** Every answer of /scim/v2 that is an error uses SCIM's error body (RFC 7644 §3.12), as application/scim+json. */
@Catch()
export class ScimExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Scim');

  catch(err: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    let error: ScimError;
    if (err instanceof ScimError) error = err;
    else {
      const status = (err as { statusCode?: number; status?: number; getStatus?: () => number }).getStatus?.() ?? (err as { statusCode?: number }).statusCode;
      if (status === 413) error = new ScimError(413, 'The request body is too large');
      else if (status && status >= 400 && status < 500) error = new ScimError(400, 'The request is not valid SCIM JSON', 'invalidSyntax');
      else {
        this.logger.error({ err: String(err) }, 'SCIM request failed');
        error = new ScimError(500, 'Internal server error');
      }
    }
    void reply.status(error.status).header('content-type', SCIM_CONTENT_TYPE).send(JSON.stringify(error.body()));
  }
}

function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * SCIM 2.0 service provider (decisions §25, RFC 7644): Users are the organization's members,
 * Groups its four roles. Its own protocol and error shape, so it stays out of the OpenAPI document.
 */
@ApiExcludeController()
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
@Controller('scim/v2')
export class ScimController {
  constructor(private readonly scim: ScimService) {}

  @Get('Users')
  listUsers(@Req() req: ScimRequest, @Query() q: Record<string, unknown>) {
    return this.scim.listUsers(req.scimOrganizationId!, { filter: q.filter, startIndex: q.startIndex, count: q.count }, baseUrl(req));
  }

  @Post('Users')
  @HttpCode(201)
  createUser(@Req() req: ScimRequest, @Body() body: unknown) {
    return this.scim.createUser(req.scimOrganizationId!, body, baseUrl(req));
  }

  @Get('Users/:id')
  getUser(@Req() req: ScimRequest, @Param('id') id: string) {
    return this.scim.getUser(req.scimOrganizationId!, id, baseUrl(req));
  }

  @Put('Users/:id')
  replaceUser(@Req() req: ScimRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.scim.replaceUser(req.scimOrganizationId!, id, body, baseUrl(req));
  }

  @Patch('Users/:id')
  patchUser(@Req() req: ScimRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.scim.patchUser(req.scimOrganizationId!, id, body, baseUrl(req));
  }

  @Delete('Users/:id')
  @HttpCode(204)
  deleteUser(@Req() req: ScimRequest, @Param('id') id: string): Promise<void> {
    return this.scim.deleteUser(req.scimOrganizationId!, id);
  }

  @Get('Groups')
  listGroups(@Req() req: ScimRequest, @Query() q: Record<string, unknown>) {
    return this.scim.listGroups(req.scimOrganizationId!, { startIndex: q.startIndex, count: q.count }, baseUrl(req));
  }

  @Get('Groups/:id')
  getGroup(@Req() req: ScimRequest, @Param('id') id: string) {
    return this.scim.getGroup(req.scimOrganizationId!, id, baseUrl(req));
  }

  @Patch('Groups/:id')
  patchGroup(@Req() req: ScimRequest, @Param('id') id: string, @Body() body: unknown) {
    return this.scim.patchGroup(req.scimOrganizationId!, id, body, baseUrl(req));
  }
}
