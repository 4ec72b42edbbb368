import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDateTime } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable, RowAction } from '../components/resource';
import { ErrorBanner, Field, fieldErrors, PageHeader, SecretOnce } from '../components/ui';
import { useAction } from '../components/use-crud';

export default function KeysPage() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => unwrap(api.GET('/api/keys')) });
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction(() => unwrap(api.POST('/api/keys', { body: { name } })), 'API key created', ['keys', 'usage']);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const revoke = useAction((id: string) => unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id } } })), 'API key revoked', ['keys', 'usage']);
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
        fields={['name']}
        submitLabel="Create key"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: (k) => (setSecret(k.key), setName('')) })}
      >
        <div className="form-row">
          <Field label="Name" error={errors.name}>
            {(p) => <input {...p} name="keyName" value={name} onChange={(e) => setName(e.target.value)} placeholder="CI pipeline" />}
          </Field>
        </div>
      </FormCard>
      <ErrorBanner error={keys.error ?? revoke.error} />
      <ResourceTable
        loading={keys.isPending}
        items={keys.data?.keys}
        empty={{ title: 'No API keys', body: 'Create a key to call the API from your own code.' }}
        head={['Name', 'Key', 'Created', 'Last used', '']}
      >
        {(k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td>
              <code>{k.keyPrefix}</code>
            </td>
            <td>{fmtDateTime(k.createdAt)}</td>
            <td>{k.lastUsedAt ? fmtDateTime(k.lastUsedAt) : 'Never'}</td>
            <RowAction label="Revoke" onClick={() => setRevoking({ id: k.id, name: k.name })} />
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        target={revoking}
        action={revoke}
        title={(k) => `Revoke “${k.name}”?`}
        body="Requests with this key fail at once."
        confirmLabel="Revoke"
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
