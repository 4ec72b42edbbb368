import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDateTime } from '../components/format';
import { FormCard } from '../components/resource';
import { CopyButton, ErrorBanner, Field, fieldErrors, isForbidden, Loading, PageHeader, Unavailable } from '../components/ui';
import { useAction } from '../components/use-crud';

type Provider = 'stripe' | 'shopify';
interface Integration {
  provider: string;
  endpointUrl: string;
  shopDomain: string | null;
  updatedAt: string;
}

function Endpoint({ integration, onRemove, busy }: { integration: Integration; onRemove: () => void; busy: boolean }) {
  return (
    <div className="card">
      <p>
        Endpoint URL <span className="muted">(updated {fmtDateTime(integration.updatedAt)})</span>
      </p>
      <div className="copy-row">
        <code>{integration.endpointUrl}</code> <CopyButton value={integration.endpointUrl} label="Copy URL" />
      </div>
      <div className="form-actions">
        <button type="button" className="button danger small" disabled={busy} onClick={onRemove}>
          Turn off
        </button>
      </div>
    </div>
  );
}

function StripeSection({ current }: { current: Integration | undefined }) {
  const [secret, setSecret] = useState('');
  const save = useAction(() => unwrap(api.PUT('/api/integrations/stripe', { body: { webhookSecret: secret } })), 'Stripe connected', ['integrations']);
  const remove = useAction(() => unwrap(api.DELETE('/api/integrations/stripe')), 'Stripe turned off', ['integrations']);
  const e = fieldErrors(save.error);
  return (
    <section className="form" aria-labelledby="stripe-title">
      <h2 id="stripe-title">Stripe</h2>
      <ol className="steps">
        <li>In Stripe, Developers → Webhooks → Add endpoint; choose <code>checkout.session.completed</code>, <code>invoice.paid</code> and <code>charge.refunded</code>.</li>
        <li>Paste its signing secret below, then set the endpoint's URL to the one shown here.</li>
        <li>
          When you create a Checkout session, pass <code>client_reference_id</code> (your customer id) and <code>metadata.dl_click_id</code> (the <code>dl_click</code> value from the landing URL).
        </li>
      </ol>
      {current && <Endpoint integration={current} busy={remove.isPending} onRemove={() => remove.mutate(undefined)} />}
      <ErrorBanner error={remove.error} />
      <FormCard
        title={current ? 'Change the signing secret' : 'Connect Stripe'}
        error={save.error}
        fields={['webhookSecret']}
        submitLabel={current ? 'Save secret' : 'Connect Stripe'}
        busy={save.isPending}
        onSubmit={() => save.mutate(undefined, { onSuccess: () => setSecret('') })}
      >
        <Field label="Signing secret (whsec_…)" error={e.webhookSecret}>
          {(p) => <input {...p} type="password" autoComplete="off" value={secret} onChange={(ev) => setSecret(ev.target.value)} />}
        </Field>
      </FormCard>
    </section>
  );
}

function ShopifySection({ current }: { current: Integration | undefined }) {
  const [form, setForm] = useState({ shopDomain: current?.shopDomain ?? '', webhookSecret: '' });
  const save = useAction(() => unwrap(api.PUT('/api/integrations/shopify', { body: form })), 'Shopify connected', ['integrations']);
  const remove = useAction(() => unwrap(api.DELETE('/api/integrations/shopify')), 'Shopify turned off', ['integrations']);
  const e = fieldErrors(save.error);
  return (
    <section className="form" aria-labelledby="shopify-title">
      <h2 id="shopify-title">Shopify</h2>
      <ol className="steps">
        <li>Enter your shop's <code>.myshopify.com</code> domain and the client secret of the app that sends the webhooks.</li>
        <li>
          Subscribe the endpoint URL shown here to <code>orders/paid</code> and <code>refunds/create</code> (JSON).
        </li>
        <li>Orders whose landing page carried <code>dl_click</code>, or with a <code>dl_click</code> note attribute, are attributed to that click.</li>
      </ol>
      {current && <Endpoint integration={current} busy={remove.isPending} onRemove={() => remove.mutate(undefined)} />}
      <ErrorBanner error={remove.error} />
      <FormCard
        title={current ? 'Change the shop or secret' : 'Connect Shopify'}
        error={save.error}
        fields={['shopDomain', 'webhookSecret']}
        submitLabel={current ? 'Save' : 'Connect Shopify'}
        busy={save.isPending}
        onSubmit={() => save.mutate(undefined, { onSuccess: () => setForm({ ...form, webhookSecret: '' }) })}
      >
        <div className="form-row">
          <Field label="Shop domain" error={e.shopDomain}>
            {(p) => <input {...p} placeholder="acme.myshopify.com" value={form.shopDomain} onChange={(ev) => setForm({ ...form, shopDomain: ev.target.value })} />}
          </Field>
          <Field label="Client secret" error={e.webhookSecret}>
            {(p) => <input {...p} type="password" autoComplete="off" value={form.webhookSecret} onChange={(ev) => setForm({ ...form, webhookSecret: ev.target.value })} />}
          </Field>
        </div>
      </FormCard>
    </section>
  );
}

/** Stripe and Shopify: where to send their webhooks and how to set them up (decisions §23). */
export default function IntegrationsPage() {
  const list = useQuery({ queryKey: ['integrations'], queryFn: () => unwrap(api.GET('/api/integrations')) });
  if (isForbidden(list.error)) {
    return <Unavailable title="Integrations">{list.error.message}. Admins of organizations on a paid plan connect Stripe and Shopify here.</Unavailable>;
  }
  const of = (p: Provider) => list.data?.integrations.find((i) => i.provider === p);
  return (
    <section className="page">
      <PageHeader title="Integrations" />
      <p className="muted">Sales from Stripe and Shopify, attributed to the link that brought each customer. Every event is applied once, even when it is sent again.</p>
      <ErrorBanner error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : (
        <div className="grid-2 integrations">
          <StripeSection current={of('stripe')} />
          <ShopifySection key={of('shopify')?.shopDomain ?? 'none'} current={of('shopify')} />
        </div>
      )}
    </section>
  );
}
