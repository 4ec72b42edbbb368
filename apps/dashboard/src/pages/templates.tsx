import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDate, fmtNumber } from '../components/format';
import { ConfirmDialog, Empty, ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useAction } from '../components/use-crud';

export default function TemplatesPage() {
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.GET('/api/templates')) });
  const [form, setForm] = useState({ name: '', slug: '', originalUrl: '', utmSource: '', utmMedium: '', utmCampaign: '', expiresInDays: '' });
  const set = (k: keyof typeof form, v: string) => setForm((f) => ({ ...f, [k]: v }));
  const create = useAction(
    () => {
      const utm = Object.fromEntries(
        [
          ['source', form.utmSource],
          ['medium', form.utmMedium],
          ['campaign', form.utmCampaign],
        ].filter(([, v]) => v.trim()),
      );
      const defaults: Record<string, unknown> = {};
      if (form.originalUrl.trim()) defaults.originalUrl = form.originalUrl.trim();
      if (Object.keys(utm).length) defaults.utmParameters = utm;
      if (form.expiresInDays) defaults.expiresInDays = Number(form.expiresInDays);
      return unwrap(api.POST('/api/templates', { body: { name: form.name, slug: form.slug, defaults } }));
    },
    (t) => `Template “${t.name}” created`,
    ['templates'],
  );
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const remove = useAction((id: string) => unwrap(api.DELETE('/api/templates/{id}', { params: { path: { id } } })), 'Template deleted', ['templates']);
  const e = fieldErrors(create.error);
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    create.mutate(undefined, { onSuccess: () => setForm({ name: '', slug: '', originalUrl: '', utmSource: '', utmMedium: '', utmCampaign: '', expiresInDays: '' }) });
  };
  const input = (k: keyof typeof form, label: string, error?: string, props: Record<string, unknown> = {}) => (
    <Field label={label} error={error}>
      {(p) => <input {...p} {...props} name={`template-${k}`} value={form[k]} onChange={(ev) => set(k, ev.target.value)} />}
    </Field>
  );
  return (
    <section className="page">
      <PageHeader title="Templates" />
      <form className="card form" onSubmit={submit} noValidate aria-label="New template">
        <h2>New template</h2>
        <p className="hint">A template holds defaults (destination, UTM, expiry) that every link created from it starts with.</p>
        <ErrorBanner error={create.error} fields={['name', 'slug', 'defaults.originalUrl', 'defaults.expiresInDays']} />
        <div className="form-row">
          {input('name', 'Name', e.name, { required: true })}
          {input('slug', 'Slug', e.slug, { placeholder: 'newsletter', required: true })}
          {input('originalUrl', 'Default destination', e['defaults.originalUrl'], { type: 'url' })}
        </div>
        <div className="form-row">
          {input('utmSource', 'utm_source', e['defaults.utmParameters.source'])}
          {input('utmMedium', 'utm_medium', e['defaults.utmParameters.medium'])}
          {input('utmCampaign', 'utm_campaign', e['defaults.utmParameters.campaign'])}
          {input('expiresInDays', 'Expires after (days)', e['defaults.expiresInDays'], { type: 'number', min: 1 })}
        </div>
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={create.isPending}>
            Create template
          </button>
        </div>
      </form>
      <ErrorBanner error={templates.error ?? remove.error} />
      {templates.isPending ? (
        <Loading />
      ) : !templates.data?.length ? (
        <Empty title="No templates" />
      ) : (
        <div className="card table-wrap">
          <table className="plain">
            <thead>
              <tr>
                <th>Name</th>
                <th>Slug</th>
                <th className="num">Links</th>
                <th>Updated</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {templates.data.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>
                    <code>{t.slug}</code>
                  </td>
                  <td className="num">{fmtNumber(t.linkCount)}</td>
                  <td>{fmtDate(t.updatedAt)}</td>
                  <td className="num">
                    {t.slug !== 'default' && (
                      <button type="button" className="button small danger" onClick={() => setDeleting({ id: t.id, name: t.name })}>
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={`Delete template “${deleting?.name}”?`}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </section>
  );
}
