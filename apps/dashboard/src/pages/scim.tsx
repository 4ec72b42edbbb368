import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDateTime } from '../components/format';
import { ConfirmRemoval, ResourceTable, RowAction } from '../components/resource';
import { ErrorBanner, PageHeader, SecretOnce } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

/** SCIM provisioning (Owners): the endpoint to give the identity provider, and its bearer tokens. */
export default function ScimPage() {
  const tokens = useQuery({ queryKey: ['scim-tokens'], queryFn: () => unwrap(api.GET('/api/organization/scim-tokens')) });
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction(() => unwrap(api.POST('/api/organization/scim-tokens')), 'SCIM token created', ['scim-tokens']);
  const revoke = useRemoval(
    (id: string) => unwrap(api.DELETE('/api/organization/scim-tokens/{id}', { params: { path: { id } } })),
    'SCIM token revoked',
    ['scim-tokens'],
  );
  const base = `${window.location.origin}/scim/v2`;
  return (
    <section className="page">
      <PageHeader title="SCIM provisioning">
        <button type="button" className="button primary" disabled={create.isPending} onClick={() => create.mutate(undefined, { onSuccess: (t) => setSecret(t.token) })}>
          New SCIM token
        </button>
      </PageHeader>
      <div className="card form">
        <p>
          Your identity provider creates, updates and deactivates members here. SCIM base URL: <code>{base}</code>
        </p>
        <p className="hint">
          Groups <code>owner</code>, <code>admin</code>, <code>member</code> and <code>viewer</code> set roles. Deactivating a user removes the member and ends their sessions at once.
        </p>
        {secret && <SecretOnce label="Your new SCIM token" value={secret} onDone={() => setSecret(null)} />}
      </div>
      <ErrorBanner error={tokens.error ?? create.error ?? revoke.error} />
      <ResourceTable
        loading={tokens.isPending}
        items={tokens.data?.tokens}
        label="SCIM tokens"
        empty={{ title: 'No SCIM tokens', body: 'Create a token and paste it with the base URL into your identity provider.' }}
        head={['Token id', 'Created', 'Last used', '']}
      >
        {(t) => (
          <tr key={t.id}>
            <td>
              <code title={t.id}>{t.id.slice(0, 8)}</code>
            </td>
            <td>{fmtDateTime(t.createdAt)}</td>
            <td>{t.lastUsedAt ? fmtDateTime(t.lastUsedAt) : 'Never'}</td>
            <RowAction label="Revoke" onClick={() => revoke.ask({ id: t.id, name: `token created ${fmtDateTime(t.createdAt)}` })} />
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={revoke}
        title={(t) => `Revoke the ${t.name}?`}
        body="Provisioning with this token stops at once."
        confirmLabel="Revoke"
      />
    </section>
  );
}
