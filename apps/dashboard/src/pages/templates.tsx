import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { fmtDate, fmtNumber } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable, RowAction } from '../components/resource';
import { ErrorBanner, Field, fieldErrors, PageHeader } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

const EMPTY = { name: '', slug: '', originalUrl: '', utmSource: '', utmMedium: '', utmCampaign: '', expiresInDays: '' };

export default function TemplatesPage() {
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.GET('/api/templates')) });
  const [form, setForm] = useState(EMPTY);
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
  const remove = useRemoval((id: string) => unwrap(api.DELETE('/api/templates/{id}', { params: { path: { id } } })), 'Template deleted', ['templates']);
  const e = fieldErrors(create.error);
  const input = (k: keyof typeof form, label: string, error?: string, props: Record<string, unknown> = {}) => (
    <Field label={label} error={error}>
      {(p) => <input {...p} {...props} name={`template-${k}`} value={form[k]} onChange={(ev) => set(k, ev.target.value)} />}
    </Field>
  );
  return (
    <section className="page">
      <PageHeader title="Templates" />
      <FormCard
        title="New template"
        intro={<p className="hint">A template holds defaults (destination, UTM, expiry) that every link created from it starts with.</p>}
        error={create.error}
        fields={['name', 'slug', 'defaults.originalUrl', 'defaults.expiresInDays']}
        submitLabel="Create template"
        busy={create.isPending}
        onSubmit={() => create.mutate(undefined, { onSuccess: () => setForm(EMPTY) })}
      >
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
      </FormCard>
      <ErrorBanner error={templates.error ?? remove.error} />
      <ResourceTable
        loading={templates.isPending}
        items={templates.data}
        empty={{ title: 'No templates', body: 'Create one above: its defaults fill every link made from it.' }}
        head={['Name', 'Slug', 'Links', 'Updated', '']}
        numeric={['Links']}
      >
        {(t) => (
          <tr key={t.id}>
            <td>{t.name}</td>
            <td>
              <code>{t.slug}</code>
            </td>
            <td className="num">{fmtNumber(t.linkCount)}</td>
            <td>{fmtDate(t.updatedAt)}</td>
            {t.slug !== 'default' ? <RowAction onClick={() => remove.ask({ id: t.id, name: t.name })} /> : <td />}
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={remove}
        title={(t) => `Delete template “${t.name}”?`}
        body="Links made from it keep their values."
      />
    </section>
  );
}
