import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx, Tier } from '@dl/platform/db';
import { BillingStatus } from './billing-state';

export interface BillingAccountRow {
  organizationId: string;
  stripeCustomerId: string;
  stripeSubscriptionId: string | null;
  status: BillingStatus;
  paidTier: Tier | null;
  interval: 'month' | 'year' | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pastDueSince: Date | null;
  graceEndedAt: Date | null;
  lastEventAt: Date | null;
}

export type BillingAccountChange = Partial<Omit<BillingAccountRow, 'organizationId' | 'stripeCustomerId'>>;

const SELECT = {
  organizationId: true,
  stripeCustomerId: true,
  stripeSubscriptionId: true,
  status: true,
  paidTier: true,
  interval: true,
  currentPeriodEnd: true,
  cancelAtPeriodEnd: true,
  pastDueSince: true,
  graceEndedAt: true,
  lastEventAt: true,
} as const;

export interface OrganizationContact {
  name: string;
  tier: Tier;
  owners: Array<{ id: string; email: string; name: string }>;
}

/** Billing accounts, the processed Stripe events, and the organization's tier as billing sets it. */
@Injectable()
export class BillingRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async find(organizationId: string, tx: PrismaTx = this.prisma): Promise<BillingAccountRow | null> {
    return (await tx.billingAccount.findUnique({ where: { organizationId }, select: SELECT })) as BillingAccountRow | null;
  }

  /** The organization a Stripe customer belongs to (webhooks name the customer, not us). */
  async organizationOfCustomer(stripeCustomerId: string, tx: PrismaTx = this.prisma): Promise<string | null> {
    const row = await tx.billingAccount.findUnique({ where: { stripeCustomerId }, select: { organizationId: true } });
    return row?.organizationId ?? null;
  }

  /** Records the organization's Stripe customer (once: a second checkout keeps the first customer). */
  async linkCustomer(organizationId: string, stripeCustomerId: string): Promise<void> {
    await this.prisma.billingAccount.upsert({ where: { organizationId }, create: { organizationId, stripeCustomerId }, update: {} });
  }

  /** Creates the account of an existing organization in a webhook's transaction; false when there is no such organization or the customer is taken. */
  async createAccount(tx: PrismaTx, organizationId: string, stripeCustomerId: string): Promise<boolean> {
    const inserted = await tx.$executeRaw(Prisma.sql`
      INSERT INTO billing_accounts (organization_id, stripe_customer_id, updated_at)
      SELECT id, ${stripeCustomerId}, now() FROM organizations WHERE id = ${organizationId}::uuid
      ON CONFLICT DO NOTHING`);
    return inserted === 1;
  }

  /** Locks the account row for one event's read-modify-write; null when the organization has none. */
  async lock(tx: PrismaTx, organizationId: string): Promise<BillingAccountRow | null> {
    await tx.$queryRaw(Prisma.sql`SELECT organization_id FROM billing_accounts WHERE organization_id = ${organizationId}::uuid FOR UPDATE`);
    return this.find(organizationId, tx);
  }

  async update(tx: PrismaTx, organizationId: string, change: BillingAccountChange): Promise<void> {
    await tx.billingAccount.update({ where: { organizationId }, data: change });
  }

  /** Sets the organization's tier; returns the tier it had. */
  async setTier(tx: PrismaTx, organizationId: string, tier: Tier): Promise<Tier> {
    const rows = await tx.$queryRaw<Array<{ tier: Tier }>>(Prisma.sql`
      SELECT tier FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
    if (rows[0] && rows[0].tier !== tier) await tx.organization.update({ where: { id: organizationId }, data: { tier } });
    return rows[0]?.tier ?? tier;
  }

  /** Claims a Stripe event id; false when it was already handled (a redelivery). */
  async claimEvent(tx: PrismaTx, event: { id: string; type: string; created: Date }, outcome: string): Promise<boolean> {
    const inserted = await tx.$executeRaw(Prisma.sql`
      INSERT INTO stripe_events (id, type, created, outcome) VALUES (${event.id}, ${event.type}, ${event.created}, ${outcome})
      ON CONFLICT (id) DO NOTHING`);
    return inserted === 1;
  }

  /** Records how an event ended and the subscription it cancels at Stripe after the commit (if any). */
  async finishEvent(tx: PrismaTx, id: string, data: { outcome: string; cancelSubscriptionId: string | null }): Promise<void> {
    await tx.stripeEvent.update({ where: { id }, data });
  }

  /** The subscription a handled event still has to cancel at Stripe (its cancel failed): a redelivery retries it. */
  async pendingCancel(tx: PrismaTx, id: string): Promise<string | null> {
    return (await tx.stripeEvent.findUnique({ where: { id }, select: { cancelSubscriptionId: true } }))?.cancelSubscriptionId ?? null;
  }

  /** Stripe canceled the event's subscription: nothing left to retry. */
  async cancelDone(id: string): Promise<void> {
    await this.prisma.stripeEvent.update({ where: { id }, data: { cancelSubscriptionId: null } });
  }

  /** Organizations past due since before `cutoff` whose grace has not been ended yet (the sweep, across organizations). */
  async graceEnded(cutoff: Date, limit = 100): Promise<string[]> {
    const rows = await this.prisma.billingAccount.findMany({
      where: { status: 'past_due', pastDueSince: { lte: cutoff }, graceEndedAt: null },
      select: { organizationId: true },
      take: limit,
    });
    return rows.map((r) => r.organizationId);
  }

  /** The organization's name, tier and Owners (whom billing emails go to). */
  async contact(organizationId: string): Promise<OrganizationContact | null> {
    const org = await this.prisma.organization.findUnique({
      where: { id: organizationId },
      select: { name: true, tier: true, memberships: { where: { role: 'OWNER' }, select: { user: { select: { id: true, email: true, name: true } } } } },
    });
    return org ? { name: org.name, tier: org.tier, owners: org.memberships.map((m) => m.user) } : null;
  }
}
