import { Body } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { CreateDomainDto, DomainResponseDto, DomainsService, UpdateDomainDto } from '@dl/domains';
import { ApiController, Endpoint, SuccessResponseDto, UuidParam } from '@dl/platform/http';

const BY_ID_ERRORS = { 400: 'Validation error', 404: 'Domain not found' } as const;

@ApiController('api/domains', 'domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Endpoint.post({
    access: Auth(Permissions.domainsManage),
    summary: 'Add a branded domain (pending until its TXT record is found)',
    status: 201,
    response: DomainResponseDto,
    errors: {
      400: 'Validation error (validation.domain: Must be a valid domain name)',
      403: 'Domain limit reached for your plan, or role does not allow this',
      409: "Domain '<domain>' is already in use",
    },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateDomainDto): Promise<DomainResponseDto> {
    return this.domains.create(principal, dto);
  }

  @Endpoint.get({ access: Auth(Permissions.read), summary: "List the organization's branded domains", response: [DomainResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<DomainResponseDto[]> {
    return this.domains.list(principal.organizationId);
  }

  @Endpoint.get(':id', { access: Auth(Permissions.read), summary: 'Read a branded domain', response: DomainResponseDto, errors: BY_ID_ERRORS })
  get(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<DomainResponseDto> {
    return this.domains.get(principal.organizationId, id);
  }

  @Endpoint.patch(':id', {
    access: Auth(Permissions.domainsManage),
    summary: 'Set the default domain, the root redirect and the not-found redirect',
    response: DomainResponseDto,
    errors: { ...BY_ID_ERRORS, 400: 'Validation error, or No updates provided' },
  })
  update(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Body() dto: UpdateDomainDto): Promise<DomainResponseDto> {
    return this.domains.update(principal.organizationId, id, dto);
  }

  @Endpoint.delete(':id', {
    access: Auth(Permissions.domainsManage),
    summary: 'Delete a branded domain no link uses',
    response: SuccessResponseDto,
    errors: { ...BY_ID_ERRORS, 409: 'Domain is in use by N links' },
  })
  delete(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.domains.delete(principal.organizationId, id);
  }

  @Endpoint.post(':id/verify', {
    access: Auth(Permissions.domainsManage),
    summary: 'Look up the TXT record now; answers the domain, verified or still pending with the reason',
    response: DomainResponseDto,
    errors: BY_ID_ERRORS,
  })
  verify(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<DomainResponseDto> {
    return this.domains.verify(principal.organizationId, id);
  }
}
