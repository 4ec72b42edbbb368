import { renderDowngradeEmail, renderPaymentFailedEmail } from './billing-email';

describe('billing emails', () => {
  const org = 'Acme <script>&"Co"';

  it('payment failed: the plan kept, the day the grace ends, the portal link; names escaped in HTML', () => {
    const m = renderPaymentFailedEmail({ organization: org, tier: 'PRO', graceEndsAt: new Date('2026-12-06T23:30:00Z'), billingUrl: 'http://d/app/billing' });
    expect(m.subject).toBe(`Payment failed for ${org}: update your card to keep PRO`);
    expect(m.text).toContain('Your organization keeps PRO until December 6, 2026.');
    expect(m.text).toContain('Update the payment method: http://d/app/billing');
    expect(m.html).toContain('Acme &lt;script&gt;&amp;&quot;Co&quot;');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('href="http://d/app/billing"');
  });

  it('downgrade: from and to, the new limits, nothing deleted', () => {
    const m = renderDowngradeEmail({ organization: org, from: 'BUSINESS', to: 'FREE', limits: { links: 1000, requestsPerMinute: 10 }, billingUrl: 'http://d/app/billing' });
    expect(m.subject).toBe(`${org} is now on the FREE plan`);
    expect(m.text).toContain('Your organization moved from BUSINESS to FREE.');
    expect(m.text).toContain('Nothing was deleted');
    expect(m.text).toContain('The FREE plan allows 1,000 links and 10 API requests a minute');
    expect(renderDowngradeEmail({ organization: 'X', from: 'UNLIMITED', to: 'PRO', limits: { links: null, requestsPerMinute: 60 }, billingUrl: 'u' }).text).toContain('allows unlimited links');
    expect(m.html).not.toContain('<script>');
  });
});
