import { domainError, domainErrorOf } from '@dl/platform/http';

/** Exact messages of decisions §2, §3 and §5. */
export const AuthMessages = {
  missing: 'Missing or invalid API key',
  authenticationRequired: 'Authentication required',
  invalidKey: 'Invalid API key',
  revokedKey: 'API key has been deleted or revoked',
  expiredKey: 'API key has expired',
  invalidSession: 'Invalid or expired session',
  badLogin: 'Invalid email or password',
  dashboardOnly: 'This endpoint requires a dashboard session',
  role: 'Your role does not allow this action',
  planEventAnalytics: 'Event analytics is not available on your plan',
  planConversions: 'Conversions require a paid plan',
  keyLimit: 'API key limit reached for your plan',
  emailTaken: 'An account with this email already exists',
  keyNotFound: 'API key not found',
  memberNotFound: 'Member not found',
  lastOwner: 'An organization must keep at least one owner',
  alreadyMember: 'This user is already a member of the organization',
  ownerOnly: 'Only an owner can grant or remove the owner role',
  invalidInvitation: 'Invalid or expired invitation',
  invitationNotFound: 'Invitation not found',
  invalidToken: 'Invalid or expired token',
  sessionNotFound: 'Session not found',
  crossSite: 'Cross-site request refused',
  inviteSignIn: 'Sign in as the invited email to accept',
} as const;

export class MissingCredentialError extends domainError('MISSING_CREDENTIAL', AuthMessages.missing) {}
export class InvalidApiKeyError extends domainError('INVALID_API_KEY', AuthMessages.invalidKey) {}
export class RevokedApiKeyError extends domainError('REVOKED_API_KEY', AuthMessages.revokedKey) {}
export class ExpiredApiKeyError extends domainError('EXPIRED_API_KEY', AuthMessages.expiredKey) {}
/** A key used outside its scopes (decisions §25): the message names the scope the route needs. */
export class ApiKeyScopeError extends domainErrorOf('API_KEY_SCOPE', (scope: string) => `API key lacks scope ${scope}`) {}
export class InvalidSessionError extends domainError('INVALID_SESSION', AuthMessages.invalidSession) {}
export class InvalidLoginError extends domainError('INVALID_LOGIN', AuthMessages.badLogin) {}
export class DashboardOnlyError extends domainError('DASHBOARD_ONLY', AuthMessages.dashboardOnly) {}
export class InsufficientRoleError extends domainError('ROLE_NOT_ALLOWED', AuthMessages.role) {}
export class PlanFeatureError extends domainError('PLAN_FEATURE_UNAVAILABLE', AuthMessages.planEventAnalytics) {}
export class ApiKeyLimitError extends domainError('API_KEY_LIMIT', AuthMessages.keyLimit) {}
export class EmailTakenError extends domainError('EMAIL_TAKEN', AuthMessages.emailTaken) {}
export class ApiKeyNotFoundError extends domainError('API_KEY_NOT_FOUND', AuthMessages.keyNotFound) {}
/** The operator CLI's lookups (tools/): an account or organization named on the command line. */
export class UserNotFoundError extends domainErrorOf('USER_NOT_FOUND', (email: string) => `No user with email ${email}`) {}
export class OrganizationNotFoundError extends domainErrorOf('ORGANIZATION_NOT_FOUND', (ref: string) => `Organization not found: ${ref}`) {}
export class MemberNotFoundError extends domainError('MEMBER_NOT_FOUND', AuthMessages.memberNotFound) {}
export class LastOwnerError extends domainError('LAST_OWNER', AuthMessages.lastOwner) {}
export class AlreadyMemberError extends domainError('ALREADY_MEMBER', AuthMessages.alreadyMember) {}
export class InvalidInvitationError extends domainError('INVALID_INVITATION', AuthMessages.invalidInvitation) {}
export class InvitationNotFoundError extends domainError('INVITATION_NOT_FOUND', AuthMessages.invitationNotFound) {}
/** A `dlv_` or `dlr_` token that is malformed, unknown, used or expired (decisions §20). */
export class InvalidEmailTokenError extends domainError('INVALID_EMAIL_TOKEN', AuthMessages.invalidToken) {}
export class SessionNotFoundError extends domainError('SESSION_NOT_FOUND', AuthMessages.sessionNotFound) {}
/** A cookie-authenticated /auth POST from another site's page (decisions §20). */
export class CrossSiteRequestError extends domainError('CROSS_SITE_REQUEST', AuthMessages.crossSite) {}
/** Accepting an invitation for an existing verified account needs that account's session. */
export class InviteSignInRequiredError extends domainError('INVITE_SIGN_IN_REQUIRED', AuthMessages.inviteSignIn) {}

/** Keys and sessions of a suspended organization (decisions §22). */
export class OrganizationSuspendedError extends domainError('ORGANIZATION_SUSPENDED', 'Organization suspended') {}
