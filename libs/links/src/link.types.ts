import { LinkValues } from '@dl/link-fields';

export type { LinkValues, LinkVariant, RedirectRule, RedirectRuleConditions, TargetingRules, UtmParameters } from '@dl/link-fields';

export interface MigrationMetadata {
  competitorPlatform: string;
  competitorId: string | null;
  /** The source platform's click count when its export has one. */
  clicks?: number;
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
  /** Screening of its destinations (decisions §22). */
  safetyStatus: 'ok' | 'suspicious' | 'blocked';
  safetyReason: string | null;
  safetyCheckedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new row for the multi-row insert: a link record's own fields, less what the insert decides. */
export interface NewLinkRow
  extends LinkValues,
    Pick<LinkRecord, 'organizationId' | 'userId' | 'projectId' | 'templateId' | 'templateSlug' | 'domainId' | 'shortCode' | 'migrationMetadata'> {
  /** null: the organization's default domain, else the service host (chosen by the insert). */
  domainName: string | null;
  /** True when the caller chose the code: a conflict is a 409, not a retry. */
  custom: boolean;
  /** A creation date carried over by an import; null or absent: now. */
  createdAt?: Date | null;
  /** Its screening (LinkScreening); unset: ok, never screened. */
  safetyStatus?: 'ok' | 'suspicious' | 'blocked';
  safetyReason?: string | null;
  safetyCheckedAt?: Date | null;
}
