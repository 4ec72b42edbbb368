/** Why a SAML response was refused; each has one message. */
export const SAML_REFUSALS = {
  malformed: 'SAML response is malformed',
  signature: 'SAML response signature is not valid',
  issuer: 'SAML response is from another identity provider',
  audience: 'SAML assertion is for another audience',
  recipient: 'SAML response is for another recipient',
  expired: 'SAML assertion has expired',
  not_yet_valid: 'SAML assertion is not yet valid',
  replayed: 'SAML assertion was already used',
  no_email: 'SAML assertion carries no email address',
  refused: 'The identity provider refused the sign-in',
} as const;

export type SamlRefusal = keyof typeof SAML_REFUSALS;

/**
 * A SAML response the service provider refuses. Protocol-level: the SSO core answers it as its
 * sign-in failure (nothing is signed in).
 */
export class SamlResponseError extends Error {
  constructor(readonly reason: SamlRefusal) {
    super(SAML_REFUSALS[reason]);
    this.name = 'SamlResponseError';
  }
}
