import { OrganizationResponseDto } from './organization-response.dto';
import { OrganizationSettingsRow } from './organization-settings.repository';

export function toOrganizationResponse(row: OrganizationSettingsRow): OrganizationResponseDto {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    tier: row.tier,
    requireTwoFactor: row.requireTwoFactor,
    createdAt: row.createdAt.toISOString(),
    deletionScheduledAt: row.deletionScheduledAt ? row.deletionScheduledAt.toISOString() : null,
  };
}
