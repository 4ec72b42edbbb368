import { Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ApiController, Endpoint } from '@dl/platform/http';
import { SsoSignInService, SsoTypeName } from '@dl/sso';
import { AuthIpLimitGuard } from '../auth/auth-ip-limit.guard';
import { setRefreshCookie } from '../auth/refresh-cookie';
import { sessionMeta } from '../auth/session-meta';

/** Where a signed-in browser lands: the dashboard, which reads its session with POST /auth/refresh. */
const AFTER_SIGN_IN = '/app';
const SAML_METADATA_TYPE = 'application/samlmetadata+xml';
const REDIRECT = { description: 'Redirect (`Location`)', headers: { Location: { schema: { type: 'string' as const } } } };
/** What a callback (OIDC redirect, SAML ACS) may answer besides its 302, but the reasons of its 401. */
const CALLBACK_ERRORS = {
  400: 'Invalid or expired single sign-on state',
  403: "The identity provider's email is not of a verified domain of this organization",
  404: 'Single sign-on is not configured',
};

/** String fields of a query or form (a repeated field: its first value). */
function stringFields(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!source || typeof source !== 'object') return out;
  for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (typeof value === 'string') out[k] = value;
  }
  return out;
}

/**
 * Single sign-on for browsers (decisions §25): start sends the browser to the identity provider of
 * the email's verified domain; the callback signs the person in (refresh cookie as login sets it) and
 * redirects to the dashboard. Failures answer the contract's error body.
 */
@ApiController('auth/sso', 'auth')
export class SsoAuthController {
  constructor(
    private readonly sso: SsoSignInService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @UseGuards(AuthIpLimitGuard)
  @Endpoint.get('start', {
    summary: "Start single sign-on: 302 to the identity provider of the email's verified domain",
    query: { email: { required: true, description: 'The email of the person signing in; its domain picks the organization', schema: { type: 'string', format: 'email' } } },
    public: true,
    status: 302,
    success: REDIRECT,
    errors: {
      400: 'Validation error (validation.email)',
      404: 'Single sign-on is not set up for <domain>',
      429: 'Rate limit exceeded',
      503: 'The identity provider could not be reached',
    },
  })
  async start(@Query('email') email: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const url = await this.sso.start(email);
    reply.header('Location', url).header('Cache-Control', 'no-store');
  }

  /** Our SAML entity id is this URL, so an IdP that fetches it gets our metadata (decisions §25). */
  @Endpoint.get('saml/metadata', {
    summary: 'Our SAML service provider metadata (entity id, ACS, NameID format) for the identity provider',
    query: { domain: { description: 'A verified email domain of a SAML connection: answers 404 unless it is one' } },
    description: 'The same document for every organization: the entity id is this URL without query, the ACS is `/auth/sso/saml/acs` (HTTP-POST).',
    public: true,
    success: { description: 'SAML 2.0 metadata (an EntityDescriptor with an SPSSODescriptor)', content: { [SAML_METADATA_TYPE]: { schema: { type: 'string' } } } },
    errors: { 404: 'Single sign-on is not configured (the `domain` is not a verified domain of a SAML connection)' },
  })
  async samlMetadata(@Query('domain') domain: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const xml = await this.sso.samlMetadata(domain);
    reply.header('Content-Type', `${SAML_METADATA_TYPE}; charset=utf-8`);
    return xml;
  }

  @Endpoint.get('oidc/callback', {
    summary: "The OIDC provider's redirect: signs in (creating the member on first use) and 302 to /app",
    query: {
      state: { required: true, description: 'The state of /auth/sso/start' },
      code: { description: "The provider's authorization code (absent when it answers an `error`)" },
    },
    description:
      'Sets the refresh cookie as login does (`dl_refresh`); the dashboard then calls POST /auth/refresh. The state works once, for 10 minutes.',
    public: true,
    status: 302,
    success: REDIRECT,
    errors: {
      ...CALLBACK_ERRORS,
      401: 'Single sign-on failed: <reason> (the ID token, nonce, issuer, audience or expiry refused)',
      503: 'The identity provider could not be reached',
    },
  })
  async oidcCallback(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const params = stringFields(request.query);
    await this.signIn('oidc', params.state, params, request, reply);
  }

  /**
   * The SAML IdP's auto-posted form (HTTP-POST binding; the adapter parses form bodies). Without
   * SameOriginGuard on purpose: the IdP's page posts it cross-site, and the signed response with
   * the single-use RelayState is what authenticates it; no cookie of ours is read.
   */
  @Endpoint.post('saml/acs', {
    summary: "The SAML IdP's POST (SAMLResponse, RelayState): signs in (creating the member on first use) and 302 to /app",
    description:
      'Form-encoded (`application/x-www-form-urlencoded`). Sets the refresh cookie as login does (`dl_refresh`); the dashboard then calls POST /auth/refresh. ' +
      "The response's signature, audience, recipient, time window and single use are checked; the RelayState works once, for 10 minutes.",
    public: true,
    status: 302,
    success: REDIRECT,
    consumes: ['application/x-www-form-urlencoded'],
    body: {
      schema: {
        type: 'object',
        required: ['SAMLResponse', 'RelayState'],
        properties: { SAMLResponse: { type: 'string', description: 'The base64 SAML Response' }, RelayState: { type: 'string', description: 'The state of /auth/sso/start' } },
      },
    },
    errors: {
      ...CALLBACK_ERRORS,
      401: 'Single sign-on failed: <reason> (signature, audience, recipient, expiry or a replayed assertion)',
      415: 'Unsupported Media Type',
    },
  })
  async samlAcs(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const params = stringFields(request.body);
    await this.signIn('saml', params.RelayState, params, request, reply);
  }

  /** The callback's sign-in: the refresh cookie as login sets it, and 302 to the dashboard. */
  private async signIn(type: SsoTypeName, state: string | undefined, params: Record<string, string>, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = await this.sso.finish(type, state, params, sessionMeta(request, this.config));
    setRefreshCookie(reply, this.config, session);
    reply.header('Location', AFTER_SIGN_IN);
  }
}
