import { Inject, Injectable } from '@nestjs/common';
import { PlansService } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Tier } from '@dl/platform/db';
import { MailerService } from '@dl/reports';
import { BillingClock } from './billing-clock';
import { renderDowngradeEmail, renderPaymentFailedEmail } from './billing-email';
import { BillingRepository } from './billing.repository';
import { GRACE_MS } from './billing-state';

/** Billing emails to every Owner of the organization, through the report mailer (SMTP_URL or the outbox). */
@Injectable()
export class BillingMailer {
  constructor(
    private readonly repo: BillingRepository,
    private readonly mailer: MailerService,
    private readonly plans: PlansService,
    private readonly clock: BillingClock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get billingUrl(): string {
    return `${this.config.DASHBOARD_URL.replace(/\/+$/, '')}/billing`;
  }

  async paymentFailed(organizationId: string): Promise<number> {
    const [contact, account] = await Promise.all([this.repo.contact(organizationId), this.repo.find(organizationId)]);
    if (!contact || !account?.paidTier) return 0;
    const since = account.pastDueSince ?? this.clock.now();
    const mail = renderPaymentFailedEmail({ organization: contact.name, tier: account.paidTier, graceEndsAt: new Date(since.getTime() + GRACE_MS), billingUrl: this.billingUrl });
    return this.toOwners(contact.owners, mail);
  }

  async downgraded(organizationId: string, from: Tier, to: Tier): Promise<number> {
    const contact = await this.repo.contact(organizationId);
    if (!contact) return 0;
    const mail = renderDowngradeEmail({ organization: contact.name, from, to, limits: this.plans.limits(to), billingUrl: this.billingUrl });
    return this.toOwners(contact.owners, mail);
  }

  private async toOwners(owners: Array<{ email: string; name: string }>, mail: { subject: string; html: string; text: string }): Promise<number> {
    for (const owner of owners) {
      await this.mailer.send({ to: { name: owner.name, address: owner.email }, subject: mail.subject, html: mail.html, text: mail.text });
    }
    return owners.length;
  }
}
