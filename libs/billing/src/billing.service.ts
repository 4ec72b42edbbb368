import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { AuditSink } from '@dl/audit';
import { PlansService, Principal } from '@dl/auth';
import { APP_CONFIG, AppConfig, BillingSettings } from '@dl/platform/config';
import { ValidationError } from '@dl/platform/http';
import { CheckoutDto } from './billing.dto';
import { AlreadyOnPlanError, NoBillingAccountError, SubscriptionActiveError } from './billing.errors';
import { isLiveSubscription } from './billing-state';
import { toBilling, toInvoice, toPlans } from './billing.mapper';
import { BillingRepository } from './billing.repository';
import { BillingRedirectDto, BillingResponseDto, InvoiceListDto } from './billing-response.dto';
import { BILLING_SETTINGS, callStripe, requireBilling, STRIPE_CLIENT } from './stripe-client';

/** decisions §21's routes: the plan, Checkout, the customer portal, the invoices, all through the `stripe` package. */
@Injectable()
export class BillingService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly plans: PlansService,
    @Inject(BILLING_SETTINGS) private readonly settings: BillingSettings | null,
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditSink,
  ) {}

  get enabled(): boolean {
    return this.settings !== null;
  }

  async get(principal: Principal): Promise<BillingResponseDto> {
    const settings = requireBilling(this.settings);
    const account = await this.repo.find(principal.organizationId);
    return toBilling(principal.tier, account, toPlans(settings.prices, (t) => this.plans.limits(t)));
  }

  /**
   * A Checkout session in subscription mode for the organization's Stripe customer (created
   * once, with an idempotency key, and reused). The customer is recorded only after Stripe has
   * made the session: when Stripe is unreachable nothing is written and the retry reuses the
   * same customer through the key. While a subscription is live it is refused (409): plans
   * change in the portal, never by a second subscription beside the first.
   */
  async checkout(principal: Principal, dto: CheckoutDto): Promise<BillingRedirectDto> {
    const settings = requireBilling(this.settings);
    const stripe = this.stripe!;
    const price = settings.prices[dto.tier]?.[dto.interval];
    if (!price) throw new ValidationError({ tier: `${dto.tier} is not sold` });
    if (principal.tier === dto.tier) throw new AlreadyOnPlanError(dto.tier);
    const organizationId = principal.organizationId;
    const account = await this.repo.find(organizationId);
    if (account && isLiveSubscription(account.status)) throw new SubscriptionActiveError();
    let customerId = account?.stripeCustomerId;
    if (!customerId) {
      const contact = await this.repo.contact(organizationId);
      const owner = contact?.owners.find((o) => o.id === principal.userId) ?? contact?.owners[0];
      const params = { name: contact?.name, email: owner?.email, metadata: { organizationId } };
      const key = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 32);
      const customer = await callStripe(() => stripe.customers.create(params, { idempotencyKey: `customer-${organizationId}-${key}` }));
      customerId = customer.id;
    }
    const base = this.config.DASHBOARD_URL.replace(/\/+$/, '');
    const session = await callStripe(() =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customerId,
        client_reference_id: organizationId,
        line_items: [{ price: price.price, quantity: 1 }],
        success_url: `${base}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/billing?checkout=canceled`,
        subscription_data: { metadata: { organizationId } },
        metadata: { organizationId, tier: dto.tier, interval: dto.interval },
      }),
    );
    if (!account) await this.repo.linkCustomer(organizationId, customerId);
    this.audit.record({ organizationId, action: 'billing.checkout_started', targetId: organizationId, changes: { tier: dto.tier, interval: dto.interval } });
    return { url: session.url! };
  }

  async portal(principal: Principal): Promise<BillingRedirectDto> {
    requireBilling(this.settings);
    const account = await this.repo.find(principal.organizationId);
    if (!account) throw new NoBillingAccountError();
    const session = await callStripe(() =>
      this.stripe!.billingPortal.sessions.create({ customer: account.stripeCustomerId, return_url: `${this.config.DASHBOARD_URL.replace(/\/+$/, '')}/billing` }),
    );
    return { url: session.url };
  }

  /** The newest 100 invoices of the organization's customer; none before the first checkout. */
  async invoices(principal: Principal): Promise<InvoiceListDto> {
    requireBilling(this.settings);
    const account = await this.repo.find(principal.organizationId);
    if (!account) return { invoices: [] };
    const list = await callStripe(() => this.stripe!.invoices.list({ customer: account.stripeCustomerId, limit: 100 }));
    return { invoices: list.data.map(toInvoice) };
  }
}
