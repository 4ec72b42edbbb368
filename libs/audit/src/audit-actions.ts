/**
 * Every action the audit log records (decisions §25), with the type of its target: the one
 * registry. `AuditRecorder.record` takes only these names, so a new state change adds a line
 * here and the compiler makes every recording agree with it.
 */
export const AUDIT_ACTIONS = {
  'link.created': 'link',
  'link.updated': 'link',
  'link.deleted': 'link',
  'links.bulk_created': 'link',
  'links.bulk_updated': 'link',
  'links.bulk_deleted': 'link',
  'links.imported': 'link',
  'template.created': 'template',
  'template.updated': 'template',
  'template.deleted': 'template',
  'project.created': 'project',
  'project.updated': 'project',
  'project.deleted': 'project',
  'domain.created': 'domain',
  'domain.updated': 'domain',
  'domain.verified': 'domain',
  'domain.deleted': 'domain',
  'webhook.created': 'webhook',
  'webhook.updated': 'webhook',
  'webhook.deleted': 'webhook',
  'app.created': 'app',
  'app.updated': 'app',
  'app.deleted': 'app',
  'pixel.created': 'pixel',
  'pixel.updated': 'pixel',
  'pixel.deleted': 'pixel',
  'api_key.created': 'api_key',
  'api_key.updated': 'api_key',
  'api_key.revoked': 'api_key',
  'member.invited': 'invitation',
  'invitation.accepted': 'invitation',
  'invitation.revoked': 'invitation',
  'member.role_changed': 'member',
  'member.removed': 'member',
  'member.joined': 'member',
  'organization.updated': 'organization',
  'billing.plan_changed': 'organization',
  'sso.updated': 'sso',
  'sso.domain_verified': 'sso',
  'sso.signed_in': 'member',
  'scim_token.created': 'scim_token',
  'scim_token.revoked': 'scim_token',
  'scim.user_provisioned': 'member',
  'scim.user_updated': 'member',
  'scim.user_deprovisioned': 'member',
  'two_factor.enabled': 'user',
  'two_factor.disabled': 'user',
  'export.created': 'export',
  'abuse.link_disabled': 'link',
  'audit_log.retention_applied': 'organization',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditTargetType = (typeof AUDIT_ACTIONS)[AuditAction];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(AUDIT_ACTIONS, value);
}
