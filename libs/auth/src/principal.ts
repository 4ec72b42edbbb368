import { Role, Tier } from '@dl/platform/db';
import type { ApiKeyScope } from './api-key-scopes';

/**
 * Who is calling, derived only from the credential. The organization of every
 * query comes from here, never from the request body or path.
 */
export interface Principal {
  kind: 'apiKey' | 'session';
  userId: string;
  organizationId: string;
  role: Role;
  tier: Tier;
  /** Set for API-key calls. */
  apiKeyId?: string;
  /** Set for dashboard sessions: the `sessions` row of the JWT. */
  sessionId?: string;
  /**
   * API-key calls: what the key may do (`api-key-scopes.ts`). Check with `principalHasScope`,
   * never by reading this list: sessions carry none and may do what their role allows.
   */
  scopes?: readonly ApiKeyScope[];
  /** API-key calls: when the key stops working (epoch ms); absent for keys that never expire. */
  expiresAtMs?: number;
  /** A session of a member without 2FA in an organization that requires it (decisions §20): only /auth/* routes. */
  twoFactorMissing?: boolean;
  /** The organization is scheduled for deletion (decisions §20): only the routes that read or restore it. */
  deletionScheduled?: boolean;
  /** The organization is suspended (decisions §22): every route answers 403 `Organization suspended`. */
  suspended?: boolean;
}

/**
 * Named permissions (decisions §3). Roles grant them in `role-permissions.ts`;
 * plan gates (event analytics on paid plans) are checked by the guard too.
 */
export const Permissions = {
  /** read links, templates, projects, analytics, reports, QR */
  read: 'read',
  /** create/update/delete links, bulk ops, import */
  linksWrite: 'links:write',
  /** create/update templates and projects */
  templatesWrite: 'templates:write',
  projectsWrite: 'projects:write',
  /** delete templates and projects */
  templatesDelete: 'templates:delete',
  projectsDelete: 'projects:delete',
  /** manage webhooks, apps (SDK tokens), pixel sites */
  webhooksManage: 'webhooks:manage',
  appsManage: 'apps:manage',
  pixelsManage: 'pixels:manage',
  analyticsEvents: 'analytics:events',
  analyticsExport: 'analytics:export',
  reportsRegenerate: 'reports:regenerate',
  membersManage: 'members:manage',
  /** create, update, verify and delete branded domains (decisions §15) */
  domainsManage: 'domains:manage',
  keysManage: 'keys:manage',
  /** read, export and verify the audit log (decisions §25) */
  auditRead: 'audit:read',
  /** read conversions, customers and their export (decisions §23; paid plans) */
  conversionsRead: 'conversions:read',
  /** send leads, sales and refunds: /api/track/* (decisions §23; paid plans) */
  conversionsWrite: 'conversions:write',
  /** set up and turn off the Stripe and Shopify integrations (decisions §23; paid plans) */
  integrationsManage: 'integrations:manage',
  /** Checkout and the customer portal (decisions §21: Owner) */
  billingManage: 'billing:manage',
  /** the invoices list (decisions §21: Owner, Admin) */
  billingInvoices: 'billing:invoices',
  /** rename the organization, change its slug (decisions §20: Admin, Owner) */
  organizationManage: 'organization:manage',
  /** require 2FA, export, schedule deletion and restore (decisions §20: Owner) */
  organizationOwn: 'organization:own',
} as const;
export type Permission = (typeof Permissions)[keyof typeof Permissions];
