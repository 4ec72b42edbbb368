import { Body } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { BillingRedirectDto, BillingResponseDto, BillingService, CheckoutDto, InvoiceListDto } from '@dl/billing';
import { ApiController, Endpoint } from '@dl/platform/http';

const OFF = { 404: 'Billing is not enabled' } as const;

@ApiController('api/billing', 'billing')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Endpoint.get({ access: Auth(Permissions.read), summary: 'The plan, its status and the plans on sale', response: BillingResponseDto, errors: OFF })
  get(@CurrentPrincipal() principal: Principal): Promise<BillingResponseDto> {
    return this.billing.get(principal);
  }

  @Endpoint.post('checkout', {
    access: Auth(Permissions.billingManage),
    summary: 'Start a Stripe Checkout session for a plan (Owner)',
    response: BillingRedirectDto,
    errors: { 400: 'Validation error', ...OFF, 409: 'Your organization is already on the PRO plan, or Subscription already active: change plans in the billing portal', 503: 'Billing is temporarily unavailable, please retry later' },
  })
  checkout(@CurrentPrincipal() principal: Principal, @Body() dto: CheckoutDto): Promise<BillingRedirectDto> {
    return this.billing.checkout(principal, dto);
  }

  @Endpoint.post('portal', {
    access: Auth(Permissions.billingManage),
    summary: 'Open the Stripe customer portal (Owner)',
    response: BillingRedirectDto,
    errors: { ...OFF, 409: 'Your organization has no billing account yet: choose a plan first', 503: 'Billing is temporarily unavailable, please retry later' },
  })
  portal(@CurrentPrincipal() principal: Principal): Promise<BillingRedirectDto> {
    return this.billing.portal(principal);
  }

  @Endpoint.get('invoices', { access: Auth(Permissions.billingInvoices), summary: 'The invoices (Owner, Admin)', response: InvoiceListDto, errors: { ...OFF, 503: 'Billing is temporarily unavailable, please retry later' } })
  invoices(@CurrentPrincipal() principal: Principal): Promise<InvoiceListDto> {
    return this.billing.invoices(principal);
  }
}
