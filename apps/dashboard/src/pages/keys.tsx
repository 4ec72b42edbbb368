import { useState } from 'react';
import type { components } from '../api/schema';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDateTime } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable, RowAction } from '../components/resource';
import { CodeChecklist, ErrorBanner, Field, FieldError, fieldErrors, PageHeader, SecretOnce, SelectField } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

type Scope = components['schemas']['ApiKeyScope'];

/** The scopes a key can be limited to (decisions §25), with what each allows. */
const SCOPES: ReadonlyArray<readonly [Exclude<Scope, 'all'>, string]> = [
  ['links:read', 'Read links, templates, projects, tags, QR codes'],
  ['links:write', 'Create and change links, bulk, import'],
  ['analytics:read', 'Analytics, reports and exports'],
  ['conversions:write', 'Track leads and sales'],
  ['domains:write', 'Manage branded domains'],
  ['webhooks:write', 'Manage webhooks, apps and pixels'],
];

/** [days, label]: 0 is a key that never expires. */
const EXPIRIES = [
  [0, 'Never'],
  [30, 'In 30 days'],
  [90, 'In 90 days'],
  [365, 'In 1 year'],
] as const;

function expiryFrom(days: number): string | undefined {
  return days ? new Date(Date.now() + days * 86_400_000).toISOString() : undefined;
}

function scopeSummary(scopes: Scope[]): string {
  return scopes.includes('all') ? 'Everything' : scopes.join(', ');
}

export default function KeysPage() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => unwrap(api.GET('/api/keys')) });
  const [name, setName] = useState('');
  const [limited, setLimited] = useState(false);
  const [scopes, setScopes] = useState<Scope[]>(['links:read']);
  const [expiryDays, setExpiryDays] = useState<(typeof EXPIRIES)[number][0]>(0);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction(
    () => unwrap(api.POST('/api/keys', { body: { name, scopes: limited ? scopes : ['all'], expiresAt: expiryFrom(expiryDays) } })),
    'API key created',
    ['keys', 'usage'],
  );
  const revoke = useRemoval((id: string) => unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id } } })), 'API key revoked', ['keys', 'usage']);
  const errors = fieldErrors(create.error);
  return (
    <section className="page">
      <PageHeader title="API keys" />
      <FormCard
        title="New API key"
        intro={
          <>
            <p className="hint">
              A key acts with your role in this organization. Send it as <code>Authorization: Bearer dl_…</code>.
            </p>
            {secret && <SecretOnce label="Your new API key" value={secret} onDone={() => setSecret(null)} />}
          </>
        }
        error={create.error}
        fields={['name', 'scopes', 'expiresAt']}
        submitLabel="Create key"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: (k) => (setSecret(k.key), setName(''), setLimited(false), setExpiryDays(0)) })}
      >
        <div className="form-row">
          <Field label="Name" error={errors.name}>
            {(p) => <input {...p} name="keyName" value={name} onChange={(e) => setName(e.target.value)} placeholder="CI pipeline" />}
          </Field>
          <SelectField label="Expires" error={errors.expiresAt} name="keyExpiry" value={expiryDays} onChange={setExpiryDays} options={EXPIRIES} />
        </div>
        <fieldset>
          <legend>Access</legend>
          <div className="page-actions">
            <label className="checkbox">
              <input type="radio" name="keyAccess" checked={!limited} onChange={() => setLimited(false)} /> Everything my role allows
            </label>
            <label className="checkbox">
              <input type="radio" name="keyAccess" checked={limited} onChange={() => setLimited(true)} /> Only these scopes
            </label>
          </div>
          {limited && <CodeChecklist options={SCOPES} value={scopes} onChange={setScopes} />}
          <FieldError message={errors.scopes} />
        </fieldset>
      </FormCard>
      <ErrorBanner error={keys.error ?? revoke.error} />
      <ResourceTable
        loading={keys.isPending}
        items={keys.data?.keys}
        empty={{ title: 'No API keys', body: 'Create a key to call the API from your own code.' }}
        head={['Name', 'Key', 'Access', 'Expires', 'Last used', '']}
      >
        {(k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td>
              <code>{k.keyPrefix}</code>
            </td>
            <td>{scopeSummary(k.scopes)}</td>
            <td>{k.expiresAt ? (new Date(k.expiresAt) <= new Date() ? `Expired ${fmtDateTime(k.expiresAt)}` : fmtDateTime(k.expiresAt)) : 'Never'}</td>
            <td>
              {k.lastUsedAt ? fmtDateTime(k.lastUsedAt) : 'Never'}
              {k.lastUsedIp && <div className="muted">from {k.lastUsedIp}</div>}
            </td>
            <RowAction label="Revoke" onClick={() => revoke.ask({ id: k.id, name: k.name })} />
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={revoke}
        title={(k) => `Revoke “${k.name}”?`}
        body="Requests with this key fail at once."
        confirmLabel="Revoke"
      />
    </section>
  );
}
