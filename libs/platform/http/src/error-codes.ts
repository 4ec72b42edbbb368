/** The statuses a domain error may answer with (each has a reason phrase for the body's `error`). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/**
 * Every domain error code and the HTTP status the apps answer it with: the one mapping of
 * domain errors to HTTP. Libraries throw `DomainError`s carrying one of these codes (a code
 * that is not a key here does not compile); `renderError` reads the status from this table.
 * A new error is a class in its library's `*.errors.ts` plus one line here.
 */
export const ERROR_STATUS = {
  // Platform: the generic failures every library may raise.
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  NO_UPDATES: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,

  // Identity: credentials, roles, plans, members, invitations (libs/auth).
  MISSING_CREDENTIAL: 401,
  INVALID_API_KEY: 401,
  REVOKED_API_KEY: 401,
  EXPIRED_API_KEY: 401,
  SCIM_TOKEN_NOT_FOUND: 404,
  API_KEY_SCOPE: 403,
  INVALID_SESSION: 401,
  INVALID_LOGIN: 401,
  DASHBOARD_ONLY: 403,
  ROLE_NOT_ALLOWED: 403,
  PLAN_FEATURE_UNAVAILABLE: 403,
  API_KEY_LIMIT: 403,
  API_KEY_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  ORGANIZATION_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  INVALID_INVITATION: 400,
  EMAIL_TAKEN: 409,
  LAST_OWNER: 409,
  ALREADY_MEMBER: 409,
  INVALID_EMAIL_TOKEN: 400,
  SESSION_NOT_FOUND: 404,
  CROSS_SITE_REQUEST: 403,
  INVITE_SIGN_IN_REQUIRED: 401,

  // Single sign-on (decisions §25, libs/sso; SSO_REQUIRED is raised by libs/auth's password routes).
  SSO_REQUIRED: 403,
  SSO_NOT_CONFIGURED: 404,
  SSO_NOT_AVAILABLE: 404,
  SSO_DOMAIN_TAKEN: 409,
  SSO_INVALID_STATE: 400,
  SSO_FAILED: 401,
  SSO_EMAIL_NOT_ALLOWED: 403,
  SSO_PROVIDER_UNAVAILABLE: 503,

  // Two-factor authentication and organization settings (decisions §20, libs/auth, libs/organizations).
  INVALID_TWO_FACTOR_CODE: 401,
  INVALID_TWO_FACTOR_CHALLENGE: 401,
  TWO_FACTOR_REQUIRED: 403,
  TWO_FACTOR_NOT_STARTED: 400,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  TWO_FACTOR_NOT_ENABLED: 400,
  ORGANIZATION_DELETION_SCHEDULED: 403,
  ORGANIZATION_SUSPENDED: 403,
  NEW_ORG_LINK_LIMIT: 403,
  ORGANIZATION_SLUG_IN_USE: 409,

  // Analytics (libs/analytics).
  LIVE_STREAM_LIMIT: 429,

  // Links and the resources links refer to (libs/links, shared by projects, templates, analytics, webhooks).
  LINK_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  TEMPLATE_NOT_FOUND: 404,
  SHORT_CODE_IN_USE: 409,
  SHORT_CODE_EXHAUSTED: 400,
  LINK_LIMIT_EXCEEDED: 403,

  // Templates (libs/templates).
  TEMPLATE_SLUG_IN_USE: 409,
  TEMPLATE_IN_USE: 409,

  // Branded domains (libs/domains).
  DOMAIN_NOT_FOUND: 404,
  INVALID_DOMAIN_NAME: 400,
  DOMAIN_NOT_VERIFIED_DEFAULT: 400,
  DOMAIN_TAKEN: 409,
  DOMAIN_HAS_LINKS: 409,
  DOMAIN_LIMIT: 403,

  // Webhooks (libs/webhooks).
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_LIMIT: 403,

  // SDK apps, pixel sites and ingestion (libs/sdk).
  APP_NOT_FOUND: 404,
  PIXEL_SITE_NOT_FOUND: 404,
  MISSING_APP_TOKEN: 401,
  INVALID_APP_TOKEN: 401,
  INVALID_SITE_KEY: 401,
  ORIGIN_NOT_ALLOWED: 403,
  INGEST_UNAVAILABLE: 503,

  // Conversions: customers, leads, sales, refunds and their integrations (libs/conversions).
  CLICK_NOT_FOUND: 404,
  CUSTOMER_NOT_FOUND: 404,
  SALE_NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  INVALID_INTEGRATION_SIGNATURE: 400,
  INVALID_SHOPIFY_SIGNATURE: 401,
  // Billing (libs/billing, decisions §21).
  BILLING_NOT_ENABLED: 404,
  ALREADY_ON_PLAN: 409,
  SUBSCRIPTION_ACTIVE: 409,
  NO_BILLING_ACCOUNT: 409,
  BILLING_UNAVAILABLE: 503,
  INVALID_STRIPE_SIGNATURE: 400,

  // Monthly reports (libs/reports): the contract shows these codes in `error` (CODES_SHOWN_AS_ERROR).
  INVALID_PERIOD: 400,
  PERIOD_IN_FUTURE: 400,
  PERIOD_LIVE: 400,
  INSUFFICIENT_ROLE: 403,
  PERIOD_BEFORE_WORKSPACE: 404,
  PERIOD_NOT_RETAINED: 404,
} as const satisfies Record<string, ErrorStatus>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes the body's `error` field shows instead of the status's reason phrase: the spec's
 * "Monthly report errors use an upper-case code in `error`".
 */
export const CODES_SHOWN_AS_ERROR: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_PERIOD',
  'PERIOD_IN_FUTURE',
  'PERIOD_LIVE',
  'INSUFFICIENT_ROLE',
  'PERIOD_BEFORE_WORKSPACE',
  'PERIOD_NOT_RETAINED',
]);
