import { AuditAction, AuditActor, AuditSink } from '@dl/audit';

/**
 * A change to a user's own account (2FA, password, sessions) goes into the audit log of every
 * organization the user belongs to; by default the user is the actor (the operator CLI names the system).
 */
export function recordUserChange(
  audit: AuditSink,
  organizationIds: readonly string[],
  userId: string,
  action: AuditAction,
  actor: AuditActor = { type: 'user', id: userId },
): void {
  for (const organizationId of organizationIds) audit.record({ organizationId, action, targetId: userId, actor });
}
