/** The stored shapes of a link's JSON fields (as the API normalizes them and the edge reads them). */

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

/** Deep-link parameters handed to the app: a flat object. */
export type DeepLinkParameters = Record<string, string | number | boolean>;

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
