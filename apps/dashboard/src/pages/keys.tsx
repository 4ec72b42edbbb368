import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDateTime } from '../components/format';
import { ConfirmDialog, Empty, ErrorBanner, Field, fieldErrors, Loading, PageHeader, SecretOnce } from '../components/ui';
import { useAction } from '../components/use-crud';

export default function KeysPage() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => unwrap(api.GET('/api/keys')) });
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction(() => unwrap(api.POST('/api/keys', { body: { name } })), 'API key created', ['keys', 'usage']);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const revoke = useAction((id: string) => unwrap(api.DELETE('/api/keys/{id}', { params: { path: { id } } })), 'API key revoked', ['keys', 'usage']);
  const errors = fieldErrors(create.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(undefined, { onSuccess: (k) => (setSecret(k.key), setName('')) });
  };
  return (
    <section className="page">
      <PageHeader title="API keys" />
      <form className="card form" onSubmit={submit} noValidate aria-label="New API key">
        <h2>New API key</h2>
        <p className="hint">A key acts with your role in this organization. Send it as <code>Authorization: Bearer dl_…</code>.</p>
        {secret && <SecretOnce label="Your new API key" value={secret} onDone={() => setSecret(null)} />}
        <ErrorBanner error={create.error} fields={['name']} />
        <div className="form-row">
          <Field label="Name" error={errors.name}>
            {(p) => <input {...p} name="keyName" value={name} onChange={(e) => setName(e.target.value)} placeholder="CI pipeline" />}
          </Field>
        </div>
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={create.isPending}>
            Create key
          </button>
        </div>
      </form>
      <ErrorBanner error={keys.error ?? revoke.error} />
      {keys.isPending ? (
        <Loading />
      ) : !keys.data?.keys.length ? (
        <Empty title="No API keys">
          <p>Create a key to call the API from your own code.</p>
        </Empty>
      ) : (
        <div className="card table-wrap">
          <table className="plain">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th>Created</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.keyPrefix}</code>
                  </td>
                  <td>{fmtDateTime(k.createdAt)}</td>
                  <td>{k.lastUsedAt ? fmtDateTime(k.lastUsedAt) : 'Never'}</td>
                  <td className="num">
                    <button type="button" className="button small danger" onClick={() => setRevoking({ id: k.id, name: k.name })}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={Boolean(revoking)}
        title={`Revoke “${revoking?.name}”?`}
        body={<p>Requests with this key fail at once.</p>}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </section>
  );
}
