import { domainError, domainErrorOf } from '@dl/platform/http';

export class SsoNotConfiguredError extends domainError('SSO_NOT_CONFIGURED', 'Single sign-on is not configured') {}

/** `GET /auth/sso/start` for an email whose domain no organization has verified. */
export class SsoNotAvailableError extends domainErrorOf('SSO_NOT_AVAILABLE', (domain: string) => `Single sign-on is not set up for ${domain}`) {}

/** The email domain is verified by another organization (the wording of branded domains, decisions §15). */
export class SsoDomainTakenError extends domainErrorOf('SSO_DOMAIN_TAKEN', (domain: string) => `Domain '${domain}' is already in use`) {}

/** A callback whose state is unknown, used or expired (10 minutes): a forged, replayed or stale sign-in. */
export class SsoInvalidStateError extends domainError('SSO_INVALID_STATE', 'Invalid or expired single sign-on state') {}

/** The identity provider's answer was refused (a token, signature, nonce, audience, issuer or expiry check failed). */
export class SsoFailedError extends domainErrorOf('SSO_FAILED', (reason: string) => `Single sign-on failed: ${reason}`) {}

/** The identity provider vouched for an email outside the organization's verified domains (or not verified by it). */
export class SsoEmailNotAllowedError extends domainErrorOf('SSO_EMAIL_NOT_ALLOWED', (reason: string) => reason) {}

/** The identity provider cannot be reached, or the connection's type has no provider in this build. */
export class SsoProviderUnavailableError extends domainErrorOf('SSO_PROVIDER_UNAVAILABLE', (message: string) => message) {}
