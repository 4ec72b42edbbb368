import { Body, StreamableFile } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';
import {
  DeleteOrganizationDto,
  DeletionScheduledResponseDto,
  OrganizationExportService,
  OrganizationResponseDto,
  OrganizationsService,
  UpdateOrganizationDto,
} from '@dl/organizations';

/** The caller's organization (decisions §20): settings, scheduled deletion and restore. */
@ApiController('api/organization', 'organization')
export class OrganizationController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly exports: OrganizationExportService,
  ) {}

  @Endpoint.get({ access: Auth(Permissions.read, { duringDeletion: true }), summary: "The caller's organization: name, slug, plan, 2FA requirement, scheduled deletion", response: OrganizationResponseDto })
  get(@CurrentPrincipal() principal: Principal): Promise<OrganizationResponseDto> {
    return this.organizations.get(principal.organizationId);
  }

  @Endpoint.get('export', {
    access: Auth(Permissions.organizationOwn),
    summary: "Everything of the organization as a ZIP, streamed from one snapshot of the database (Owner)",
    description:
      '`links.csv`, `clicks.csv` (every raw click kept), `templates.json`, `projects.json`, `domains.json`, ' +
      '`webhooks.json` (without secrets) and `members.csv`. Links created while it streams are in none of the files.',
    produces: ['application/zip'],
    success: { description: 'Attachment `organization-<id>-export.zip`', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
  })
  async export(@CurrentPrincipal() principal: Principal): Promise<StreamableFile> {
    const out = await this.exports.export(principal.organizationId);
    return new StreamableFile(out.stream, { type: 'application/zip', disposition: `attachment; filename="${out.filename}"` });
  }

  @Endpoint.patch({
    access: Auth(Permissions.organizationManage),
    summary: 'Rename the organization, change its slug (Admin), require two-factor authentication of its members (Owner)',
    response: OrganizationResponseDto,
    errors: { 400: 'Validation error, or No updates provided', 409: "Slug '<slug>' is already in use" },
  })
  update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateOrganizationDto): Promise<OrganizationResponseDto> {
    return this.organizations.update(principal, body);
  }

  @Endpoint.delete({
    access: Auth(Permissions.organizationOwn),
    summary: 'Schedule the deletion of the organization and all its data, 7 days from now (Owner)',
    description:
      'From then on its links answer the 404 page and its keys and sessions get 403 `Organization scheduled for deletion`, ' +
      'except on GET /api/organization and POST /api/organization/restore. The Owners are emailed.',
    status: 202,
    response: DeletionScheduledResponseDto,
    errors: { 400: "Validation error (`confirm` is not the organization's slug)" },
  })
  scheduleDeletion(@CurrentPrincipal() principal: Principal, @Body() body: DeleteOrganizationDto): Promise<DeletionScheduledResponseDto> {
    return this.organizations.scheduleDeletion(principal, body.confirm);
  }

  @Endpoint.post('restore', { access: Auth(Permissions.organizationOwn, { duringDeletion: true }), summary: 'Undo a scheduled deletion (Owner)', response: OrganizationResponseDto })
  restore(@CurrentPrincipal() principal: Principal): Promise<OrganizationResponseDto> {
    return this.organizations.restore(principal);
  }
}
