/** Stored UTM parameters (bare keys). */
export interface UtmParameters {
  source?: string;
  medium?: string;
  campaign?: string;
  term?: string;
  content?: string;
}

/** Stored targeting rules (`platforms` on create is stored as `devices`). */
export interface TargetingRules {
  countries?: string[];
  devices?: string[];
  languages?: string[];
}

export interface MigrationMetadata {
  competitorPlatform: string;
  competitorId: string | null;
}

/** One A/B variant: a web destination and its share of visitors (weights sum to 100). */
export interface LinkVariant {
  url: string;
  weight: number;
}

/** What a redirect rule tests; every condition given must hold. */
export interface RedirectRuleConditions {
  countries?: string[];
  languages?: string[];
  devices?: string[];
  os?: string[];
  browsers?: string[];
  query?: Record<string, string>;
  /** ISO 8601. */
  after?: string;
  before?: string;
}

export interface RedirectRule {
  conditions: RedirectRuleConditions;
  url: string;
}

/** The normalized values of a link's editable fields (what create/update/defaults resolve to). */
export interface LinkValues {
  originalUrl: string;
  title: string | null;
  description: string | null;
  iosUrl: string | null;
  androidUrl: string | null;
  webFallbackUrl: string | null;
  appScheme: string | null;
  iosUniversalLink: string | null;
  androidAppLink: string | null;
  deepLinkPath: string | null;
  deepLinkParameters: Record<string, string | number | boolean> | null;
  attributionWindowHours: number;
  utmParameters: UtmParameters | null;
  targetingRules: TargetingRules | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImageUrl: string | null;
  tags: string[];
  expiresAt: Date | null;
  /** scrypt hash of the visitor password (never shown; reads show `hasPassword`). */
  passwordHash: string | null;
  expiredUrl: string | null;
  maxClicks: number | null;
  variants: LinkVariant[] | null;
  redirectRules: RedirectRule[] | null;
  cloak: boolean;
  publicStats: boolean;
}

/** A link row as the repository returns it (with its template's slug). */
export interface LinkRecord extends LinkValues {
  id: string;
  organizationId: string;
  userId: string;
  projectId: string | null;
  templateId: string;
  templateSlug: string;
  /** The branded domain the link is on, or null on the service's own host. */
  domainId: string | null;
  /** Its name ('' on the service's own host). */
  domainName: string;
  shortCode: string;
  isActive: boolean;
  clickCount: number;
  migrationMetadata: MigrationMetadata | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new row for the multi-row insert. */
export interface NewLinkRow extends LinkValues {
  organizationId: string;
  userId: string;
  projectId: string | null;
  templateId: string;
  templateSlug: string;
  domainId: string | null;
  /** null: the organization's default domain, else the service host (chosen by the insert). */
  domainName: string | null;
  shortCode: string;
  /** True when the caller chose the code: a conflict is a 409, not a retry. */
  custom: boolean;
  migrationMetadata: MigrationMetadata | null;
}
