import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
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
import { CreateDomainDto, DomainResponse, DomainsService, UpdateDomainDto } from '@dl/domains';
import { UuidParamPipe } from '../links/uuid-param.pipe';
import { SuccessResponseDto } from '@dl/platform/http';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { DomainResponseDoc } from './domains.response-doc';

@ApiTags('domains')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Post()
  @HttpCode(201)
  @Auth(Permissions.domainsManage)
  @ApiOperation({ summary: 'Add a branded domain (pending until its TXT record is found)' })
  @ApiCreatedResponse({ type: DomainResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error (validation.domain: Must be a valid domain name)' })
  @ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Domain limit reached for your plan, or role does not allow this' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: "Domain '<domain>' is already in use" })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateDomainDto): Promise<DomainResponse> {
    return this.domains.create(principal, dto);
  }

  @Get()
  @Auth(Permissions.read)
  @ApiOperation({ summary: "List the organization's branded domains" })
  @ApiOkResponse({ type: [DomainResponseDoc] })
  list(@CurrentPrincipal() principal: Principal): Promise<DomainResponse[]> {
    return this.domains.list(principal.organizationId);
  }

  @Get(':id')
  @Auth(Permissions.read)
  @ApiOperation({ summary: 'Read a branded domain' })
  @ApiOkResponse({ type: DomainResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Domain not found' })
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<DomainResponse> {
    return this.domains.get(principal.organizationId, id);
  }

  @Patch(':id')
  @Auth(Permissions.domainsManage)
  @ApiOperation({ summary: 'Set the default domain, the root redirect and the not-found redirect' })
  @ApiOkResponse({ type: DomainResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error, or No updates provided' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Domain not found' })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateDomainDto,
  ): Promise<DomainResponse> {
    return this.domains.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @Auth(Permissions.domainsManage)
  @ApiOperation({ summary: 'Delete a branded domain no link uses' })
  @ApiOkResponse({ type: SuccessResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Domain not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'Domain is in use by N links' })
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
    return this.domains.delete(principal.organizationId, id);
  }

  @Post(':id/verify')
  @HttpCode(200)
  @Auth(Permissions.domainsManage)
  @ApiOperation({ summary: 'Look up the TXT record now; answers the domain, verified or still pending with the reason' })
  @ApiOkResponse({ type: DomainResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Domain not found' })
  verify(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<DomainResponse> {
    return this.domains.verify(principal.organizationId, id);
  }
}
