import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, authHeaders, unwrap } from '../api/client';
import { sessionClaims } from '../api/session';
import { fmtDateTime } from '../components/format';
import { FormCard } from '../components/resource';
import { ConfirmDialog, ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useAction } from '../components/use-crud';
import { saveBlob } from '../components/download';

/** Organization settings (decisions §20): name and slug (Admin), require 2FA, export, delete and restore (Owner). */
export default function OrganizationPage() {
  const org = useQuery({ queryKey: ['organization'], queryFn: () => unwrap(api.GET('/api/organization')) });
  const owner = sessionClaims()?.role === 'OWNER';
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [confirm, setConfirm] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState<string | null>(null);
  useEffect(() => {
    setName(org.data?.name ?? '');
    setSlug(org.data?.slug ?? '');
  }, [org.data?.name, org.data?.slug]);

  const save = useAction(() => unwrap(api.PATCH('/api/organization', { body: { name, slug } })), 'Organization saved', ['organization']);
  const require2fa = useAction(
    (on: boolean) => unwrap(api.PATCH('/api/organization', { body: { requireTwoFactor: on } })),
    (o) => (o.requireTwoFactor ? 'Members now need two-factor authentication' : 'Two-factor authentication is optional'),
    ['organization'],
  );
  const remove = useAction(() => unwrap(api.DELETE('/api/organization', { body: { confirm } })), 'Deletion scheduled', ['organization']);
  const restore = useAction(() => unwrap(api.POST('/api/organization/restore')), 'Organization restored', ['organization']);
  const errors = fieldErrors(save.error);

  const download = async () => {
    setExporting('Preparing the export…');
    try {
      const res = await fetch('/api/organization/export', { headers: await authHeaders() });
      if (!res.ok) throw new Error((await res.json().catch(() => null))?.message ?? `Export failed (${res.status})`);
      saveBlob(await res.blob(), `${org.data?.slug ?? 'organization'}-export.zip`);
      setExporting(null);
    } catch (err) {
      setExporting((err as Error).message);
    }
  };

  if (org.isPending) return <Loading />;
  if (!org.data) return <ErrorBanner error={org.error} />;
  const o = org.data;
  return (
    <section className="page">
      <PageHeader title="Organization" />
      {o.deletionScheduledAt && (
        <div className="card danger-zone" role="alert">
          <h2>Deletion scheduled</h2>
          <p>
            Everything of {o.name} will be deleted on <strong>{fmtDateTime(o.deletionScheduledAt)}</strong>. Until then its links answer “not found” and
            only owners can restore it.
          </p>
          <ErrorBanner error={restore.error} />
          {owner && (
            <div className="form-actions">
              <button type="button" className="button primary" disabled={restore.isPending} onClick={() => restore.mutate(undefined)}>
                Restore {o.name}
              </button>
            </div>
          )}
        </div>
      )}
      {!o.deletionScheduledAt && (
        <>
          <FormCard title="Name and address" error={save.error} fields={['name', 'slug']} submitLabel="Save" busy={save.isPending} onSubmit={() => save.mutate(undefined)}>
            <div className="form-row">
              <Field label="Name" error={errors.name}>
                {(p) => <input {...p} name="orgName" value={name} onChange={(e) => setName(e.target.value)} />}
              </Field>
              <Field label="Slug" error={errors.slug}>
                {(p) => <input {...p} name="orgSlug" value={slug} onChange={(e) => setSlug(e.target.value.toLowerCase())} spellCheck={false} />}
              </Field>
            </div>
            <p className="hint">
              Plan <strong>{o.tier}</strong> · created {fmtDateTime(o.createdAt)}
            </p>
          </FormCard>
          <div className="card form">
            <h2>Security</h2>
            <label className="checkbox">
              <input type="checkbox" checked={o.requireTwoFactor} disabled={!owner || require2fa.isPending} onChange={(e) => require2fa.mutate(e.target.checked)} />
              Require two-factor authentication for every member
            </label>
            <p className="hint">Members without it can only set it up until they do. API keys are not affected.{!owner && ' Only an owner can change this.'}</p>
            {fieldErrors(require2fa.error).requireTwoFactor ? (
              <div className="field-error">{fieldErrors(require2fa.error).requireTwoFactor}</div>
            ) : (
              <ErrorBanner error={require2fa.error} />
            )}
          </div>
          {owner && (
            <div className="card form">
              <h2>Export</h2>
              <p className="hint">A ZIP of links, clicks, templates, projects, domains, webhooks (without secrets) and members, as of the moment it starts.</p>
              <div className="form-actions">
                <button type="button" className="button" onClick={download} disabled={exporting === 'Preparing the export…'}>
                  Download export
                </button>
              </div>
              {exporting && <p className="hint" role="status">{exporting}</p>}
            </div>
          )}
          {owner && (
            <div className="card form danger-zone">
              <h2>Delete organization</h2>
              <p className="hint">
                Its links stop at once; everything is deleted 7 days later unless an owner restores it. Type <code>{o.slug}</code> to confirm.
              </p>
              <Field label="Slug" error={fieldErrors(remove.error).confirm}>
                {(p) => <input {...p} name="deleteConfirm" value={confirm} onChange={(e) => setConfirm(e.target.value)} spellCheck={false} autoComplete="off" />}
              </Field>
              <div className="form-actions">
                <button type="button" className="button danger" disabled={confirm !== o.slug} onClick={() => setDeleting(true)}>
                  Delete organization
                </button>
              </div>
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${o.name}?`}
        body="Its links stop answering now, and all of its data is deleted in 7 days. The owners are emailed."
        confirmLabel="Schedule deletion"
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => (setDeleting(false), setConfirm('')) })}
      />
    </section>
  );
}
