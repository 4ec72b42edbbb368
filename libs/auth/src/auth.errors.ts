import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '@dl/platform/http';

/** Exact messages of decisions §2, §3 and §5. */
export const AuthMessages = {
  missing: 'Missing or invalid API key',
  authenticationRequired: 'Authentication required',
  invalidKey: 'Invalid API key',
  revokedKey: 'API key has been deleted or revoked',
  invalidSession: 'Invalid or expired session',
  badLogin: 'Invalid email or password',
  dashboardOnly: 'This endpoint requires a dashboard session',
  role: 'Your role does not allow this action',
  planEventAnalytics: 'Event analytics is not available on your plan',
  keyLimit: 'API key limit reached for your plan',
  emailTaken: 'An account with this email already exists',
  keyNotFound: 'API key not found',
  memberNotFound: 'Member not found',
  lastOwner: 'An organization must keep at least one owner',
  alreadyMember: 'This user is already a member of the organization',
  ownerOnly: 'Only an owner can grant or remove the owner role',
  invalidInvitation: 'Invalid or expired invitation',
  invitationNotFound: 'Invitation not found',
} as const;

export class MissingCredentialError extends UnauthorizedError {
  constructor(message: string = AuthMessages.missing) {
    super(message);
  }
}
export class InvalidApiKeyError extends UnauthorizedError {
  constructor() {
    super(AuthMessages.invalidKey);
  }
}
export class RevokedApiKeyError extends UnauthorizedError {
  constructor() {
    super(AuthMessages.revokedKey);
  }
}
export class InvalidSessionError extends UnauthorizedError {
  constructor() {
    super(AuthMessages.invalidSession);
  }
}
export class InvalidLoginError extends UnauthorizedError {
  constructor() {
    super(AuthMessages.badLogin);
  }
}
export class DashboardOnlyError extends ForbiddenError {
  constructor() {
    super(AuthMessages.dashboardOnly);
  }
}
export class InsufficientRoleError extends ForbiddenError {
  constructor(message: string = AuthMessages.role) {
    super(message);
  }
}
export class PlanFeatureError extends ForbiddenError {
  constructor(message: string = AuthMessages.planEventAnalytics) {
    super(message);
  }
}
export class ApiKeyLimitError extends ForbiddenError {
  constructor() {
    super(AuthMessages.keyLimit);
  }
}
export class EmailTakenError extends ConflictError {
  constructor() {
    super(AuthMessages.emailTaken);
  }
}
export class ApiKeyNotFoundError extends NotFoundError {
  constructor() {
    super(AuthMessages.keyNotFound);
  }
}
export class MemberNotFoundError extends NotFoundError {
  constructor(message: string = AuthMessages.memberNotFound) {
    super(message);
  }
}
export class LastOwnerError extends ConflictError {
  constructor() {
    super(AuthMessages.lastOwner);
  }
}
export class AlreadyMemberError extends ConflictError {
  constructor() {
    super(AuthMessages.alreadyMember);
  }
}
export class InvalidInvitationError extends BadRequestError {
  constructor() {
    super(AuthMessages.invalidInvitation);
  }
}
export class InvitationNotFoundError extends NotFoundError {
  constructor() {
    super(AuthMessages.invitationNotFound);
  }
}
