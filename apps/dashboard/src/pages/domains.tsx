import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { fmtDateTime } from '../components/format';
import { ConfirmRemoval, FormCard } from '../components/resource';
import { Empty, ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { TxtRecord } from '../components/txt-record';
import { useAction, useRemoval } from '../components/use-crud';

type Domain = components['schemas']['DomainResponseDto'];

const STATUS: Record<string, { label: string; tone: string }> = {
  verified: { label: 'Verified', tone: 'ok' },
  pending: { label: 'Waiting for DNS', tone: 'warn' },
  invalid: { label: 'DNS record lost', tone: 'bad' },
};

/** Decisions §22: a pending claim not verified within 7 days of being added is removed. */
const CLAIM_DAYS = 7;

/** The TXT record to add at the DNS host, each part with a copy button. */
function DnsRecord({ d }: { d: Domain }) {
  return (
    <div className="dns-record" role="group" aria-label={`DNS record for ${d.domain}`}>
      <p className="hint">Add this TXT record at your DNS provider, then press Verify (DNS changes can take a few minutes to show).</p>
      <TxtRecord verification={d.verification} testId="txt" />
      <p className="hint">
        Then point the domain itself at the service (a CNAME, or A/AAAA records) so that its short links reach us.
      </p>
    </div>
  );
}

/** One domain: status, DNS record while not verified, verify, default, redirects, delete. */
function DomainCard({ d, onDelete }: { d: Domain; onDelete: (d: Domain) => void }) {
  const [root, setRoot] = useState(d.rootRedirectUrl ?? '');
  const [notFound, setNotFound] = useState(d.notFoundUrl ?? '');
  const verify = useAction(
    () => unwrap(api.POST('/api/domains/{id}/verify', { params: { path: { id: d.id } } })),
    (r) => (r.status === 'verified' ? `${r.domain} is verified` : `${r.domain}: not verified yet`),
    ['domains'],
  );
  const makeDefault = useAction(
    () => unwrap(api.PATCH('/api/domains/{id}', { params: { path: { id: d.id } }, body: { isDefault: true } })),
    `${d.domain} is now the default domain`,
    ['domains'],
  );
  const save = useAction(
    () =>
      unwrap(
        api.PATCH('/api/domains/{id}', {
          params: { path: { id: d.id } },
          body: { rootRedirectUrl: root.trim() || null, notFoundUrl: notFound.trim() || null },
        }),
      ),
    'Redirects saved',
    ['domains'],
  );
  const errors = fieldErrors(save.error);
  const status = STATUS[d.status] ?? { label: d.status, tone: '' };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };
  return (
    <article className="card form domain-card" aria-label={d.domain}>
      <div className="rule-head">
        <h2>
          {d.domain} {d.isDefault && <span className="pill">Default</span>}
        </h2>
        <span className={`pill ${status.tone}`} data-testid="domain-status">
          {status.label}
        </span>
      </div>
      {d.status !== 'verified' && <DnsRecord d={d} />}
      {d.status === 'pending' && (
        <p className="hint" data-testid="claim-expiry">
          Verify it by <strong>{fmtDateTime(new Date(Date.parse(d.createdAt) + CLAIM_DAYS * 86_400_000).toISOString())}</strong>: a domain not verified within {CLAIM_DAYS} days
          of being added is removed. Until then another organization may claim it too: the first to verify gets it.
        </p>
      )}
      {d.verificationError && d.status !== 'verified' && (
        <p className="field-error" role="status">
          {d.verificationError}
        </p>
      )}
      <p className="hint">
        {d.verifiedAt ? `Verified ${fmtDateTime(d.verifiedAt)}. ` : ''}
        {d.lastCheckedAt ? `Last checked ${fmtDateTime(d.lastCheckedAt)}.` : 'Not checked yet.'}
      </p>
      <ErrorBanner error={verify.error ?? makeDefault.error} />
      <div className="page-actions">
        <button type="button" className="button" onClick={() => verify.mutate(undefined)} disabled={verify.isPending}>
          {verify.isPending ? 'Checking…' : d.status === 'verified' ? 'Check again' : 'Verify'}
        </button>
        {d.status === 'verified' && !d.isDefault && (
          <button type="button" className="button" onClick={() => makeDefault.mutate(undefined)} disabled={makeDefault.isPending}>
            Make default
          </button>
        )}
        <button type="button" className="button danger" onClick={() => onDelete(d)}>
          Delete
        </button>
      </div>
      <form onSubmit={submit} noValidate className="form" aria-label={`Redirects of ${d.domain}`}>
        <ErrorBanner error={save.error} fields={['rootRedirectUrl', 'notFoundUrl']} />
        <div className="form-row">
          <Field label="Home page redirect" error={errors.rootRedirectUrl} hint={`Where https://${d.domain}/ sends visitors`}>
            {(p) => <input {...p} type="url" value={root} placeholder="https://example.com" onChange={(e) => setRoot(e.target.value)} />}
          </Field>
          <Field label="Unknown link redirect" error={errors.notFoundUrl} hint="Where a code that does not exist sends visitors">
            {(p) => <input {...p} type="url" value={notFound} placeholder="https://example.com/404" onChange={(e) => setNotFound(e.target.value)} />}
          </Field>
        </div>
        <div className="form-actions">
          <button type="submit" className="button" disabled={save.isPending}>
            Save redirects
          </button>
        </div>
      </form>
    </article>
  );
}

export default function DomainsPage() {
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => unwrap(api.GET('/api/domains')) });
  const [name, setName] = useState('');
  const create = useAction(() => unwrap(api.POST('/api/domains', { body: { domain: name.trim() } })), (d) => `${d.domain} added: add its DNS record`, ['domains']);
  const remove = useRemoval((id: string) => unwrap(api.DELETE('/api/domains/{id}', { params: { path: { id } } })), 'Domain deleted', ['domains']);
  const errors = fieldErrors(create.error);
  return (
    <section className="page">
      <PageHeader title="Domains" />
      <FormCard
        title="Add a domain"
        intro={<p className="hint">Short links on your own domain (go.yourbrand.com). You prove it is yours with a DNS TXT record within {CLAIM_DAYS} days.</p>}
        error={create.error}
        fields={['domain']}
        submitLabel="Add domain"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: () => setName('') })}
      >
        <Field label="Domain name" error={errors.domain}>
          {(p) => <input {...p} value={name} placeholder="go.example.com" autoCapitalize="off" spellCheck={false} onChange={(e) => setName(e.target.value)} required />}
        </Field>
      </FormCard>
      <ErrorBanner error={domains.error ?? remove.error} />
      {domains.isPending ? (
        <Loading />
      ) : !domains.data?.length ? (
        <Empty title="No domains yet">
          <p>Until you add one, short links use the service&apos;s own domain.</p>
        </Empty>
      ) : (
        domains.data.map((d) => <DomainCard key={`${d.id}:${d.rootRedirectUrl}:${d.notFoundUrl}`} d={d} onDelete={(d) => remove.ask({ id: d.id, name: d.domain })} />)
      )}
      <ConfirmRemoval
        removal={remove}
        title={(d) => `Delete ${d.name}?`}
        body="A domain that links still use cannot be deleted: move or delete those links first."
      />
    </section>
  );
}
