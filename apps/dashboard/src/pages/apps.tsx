import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDateTime } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable, RowAction } from '../components/resource';
import { CopyButton, ErrorBanner, Field, fieldErrors, PageHeader, SecretOnce, SelectField } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

/** The ingest app's origin: beside the api on a laptop (port 3002 for 3000), else the same host. */
function ingestOrigin(): string {
  return window.location.origin.replace(/:3000$/, ':3002');
}

function pixelSnippet(siteKey: string): string {
  return `<script async src="${ingestOrigin()}/api/pixel/v1/script.js" data-site-key="${siteKey}"></script>`;
}

const PLATFORMS = [
  ['ios', 'iOS'],
  ['android', 'Android'],
] as const;

function AppsSection() {
  const apps = useQuery({ queryKey: ['apps'], queryFn: () => unwrap(api.GET('/api/apps')) });
  const [form, setForm] = useState({ name: '', platform: 'ios' as (typeof PLATFORMS)[number][0], id: '' });
  const [token, setToken] = useState<string | null>(null);
  const create = useAction(
    () =>
      unwrap(
        api.POST('/api/apps', {
          body: { name: form.name, platform: form.platform, ...(form.platform === 'ios' ? { bundleId: form.id } : { packageName: form.id }) },
        }),
      ),
    (a) => `App “${a.name}” registered`,
    ['apps'],
  );
  const revoke = useRemoval((id: string) => unwrap(api.DELETE('/api/apps/{id}', { params: { path: { id } } })), 'App token revoked', ['apps']);
  const e = fieldErrors(create.error);
  return (
    <section className="form" aria-labelledby="apps-title">
      <h2 id="apps-title">Mobile apps</h2>
      <FormCard
        title="Register an app"
        showTitle={false}
        intro={token && <SecretOnce label="SDK token" value={token} onDone={() => setToken(null)} />}
        error={create.error}
        fields={['name', 'platform', 'bundleId', 'packageName']}
        submitLabel="Register app"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: (a) => (setToken(a.appToken), setForm({ ...form, name: '', id: '' })) })}
      >
        <div className="form-row">
          <Field label="App name" error={e.name}>
            {(p) => <input {...p} value={form.name} onChange={(ev) => setForm({ ...form, name: ev.target.value })} />}
          </Field>
          <SelectField label="Platform" error={e.platform} value={form.platform} onChange={(platform) => setForm({ ...form, platform })} options={PLATFORMS} />
          <Field label={form.platform === 'ios' ? 'Bundle id' : 'Package name'} error={form.platform === 'ios' ? e.bundleId : e.packageName}>
            {(p) => <input {...p} value={form.id} placeholder="com.example.shop" onChange={(ev) => setForm({ ...form, id: ev.target.value })} />}
          </Field>
        </div>
      </FormCard>
      <ErrorBanner error={apps.error ?? revoke.error} />
      <ResourceTable
        loading={apps.isPending}
        items={apps.data}
        empty={{ title: 'No apps', body: 'Register your iOS or Android app to get an SDK token for installs and in-app events.' }}
        head={['App', 'Identifier', 'Token', 'Last seen', '']}
      >
        {(a) => (
          <tr key={a.id}>
            <td>
              {a.name} <span className="pill">{a.platform}</span>
            </td>
            <td>
              <code>{a.bundleId ?? a.packageName}</code>
            </td>
            <td>
              <code>{a.tokenPrefix}</code>
            </td>
            <td>{a.lastSeenAt ? fmtDateTime(a.lastSeenAt) : 'Never'}</td>
            <RowAction label="Revoke" onClick={() => revoke.ask({ id: a.id, name: a.name })} />
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={revoke}
        title={(a) => `Revoke the token of “${a.name}”?`}
        body="The SDK in shipped builds stops sending events. Installs and events are kept."
        confirmLabel="Revoke"
      />
    </section>
  );
}

function PixelsSection() {
  const sites = useQuery({ queryKey: ['pixels'], queryFn: () => unwrap(api.GET('/api/pixels')) });
  const [form, setForm] = useState({ name: '', domain: '' });
  const [created, setCreated] = useState<string | null>(null);
  const create = useAction(() => unwrap(api.POST('/api/pixels', { body: form })), (s) => `Site “${s.name}” added`, ['pixels']);
  const remove = useRemoval((id: string) => unwrap(api.DELETE('/api/pixels/{id}', { params: { path: { id } } })), 'Pixel site deleted', ['pixels']);
  const e = fieldErrors(create.error);
  return (
    <section className="form" aria-labelledby="pixels-title">
      <h2 id="pixels-title">Pixel sites</h2>
      <FormCard
        title="Add a pixel site"
        showTitle={false}
        intro={
          <>
            {created && (
              <div className="secret-once">
                <p>
                  <strong>Paste this snippet</strong> in the &lt;head&gt; of every page of the site:
                </p>
                <pre className="snippet">{pixelSnippet(created)}</pre>
                <div className="copy-row">
                  <CopyButton value={pixelSnippet(created)} label="Copy snippet" />
                  <button type="button" className="button ghost" onClick={() => setCreated(null)}>
                    Done
                  </button>
                </div>
              </div>
            )}
          </>
        }
        error={create.error}
        fields={['name', 'domain']}
        submitLabel="Add site"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: (s) => (setCreated(s.siteKey), setForm({ name: '', domain: '' })) })}
      >
        <div className="form-row">
          <Field label="Site name" error={e.name}>
            {(p) => <input {...p} value={form.name} onChange={(ev) => setForm({ ...form, name: ev.target.value })} />}
          </Field>
          <Field label="Domain" error={e.domain}>
            {(p) => <input {...p} value={form.domain} placeholder="www.example.com" onChange={(ev) => setForm({ ...form, domain: ev.target.value })} />}
          </Field>
        </div>
      </FormCard>
      <ErrorBanner error={sites.error ?? remove.error} />
      <ResourceTable
        loading={sites.isPending}
        items={sites.data}
        empty={{ title: 'No pixel sites', body: 'Add your website to measure page views and conversions from your links.' }}
        head={['Site', 'Domain', 'Snippet', 'Last seen', '']}
      >
        {(s) => (
          <tr key={s.id}>
            <td>{s.name}</td>
            <td>{s.domain}</td>
            <td>
              <CopyButton value={pixelSnippet(s.siteKey)} label="Copy snippet" />
            </td>
            <td>{s.lastSeenAt ? fmtDateTime(s.lastSeenAt) : 'Never'}</td>
            <RowAction onClick={() => remove.ask({ id: s.id, name: s.name })} />
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={remove}
        title={(s) => `Delete “${s.name}”?`}
        body="Its key stops working at once; its events are kept."
      />
    </section>
  );
}

export default function AppsPage() {
  return (
    <section className="page">
      <PageHeader title="Apps & pixels" />
      <AppsSection />
      <PixelsSection />
    </section>
  );
}
