import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, authHeaders, unwrap, type ApiErrorBody } from '../api/client';
import type { components } from '../api/schema';
import { fmtNumber } from '../components/format';
import { ErrorBanner, Field, fieldErrors, namedOptions, PageHeader, SelectField, Stat } from '../components/ui';
import { useToast } from '../components/toasts';

type ImportResult = components['schemas']['ImportResultDto'];
type Phase = { kind: 'idle' } | { kind: 'uploading'; percent: number } | { kind: 'importing' } | { kind: 'done'; result: ImportResult };

const PLATFORMS = [
  ['branch', 'Branch'],
  ['bitly', 'Bitly'],
  ['rebrandly', 'Rebrandly'],
  ['shortio', 'Short.io'],
  ['dub', 'Dub'],
  ['csv', 'Another tool (CSV with a url column)'],
] as const;
type Platform = (typeof PLATFORMS)[number][0];

const CONFLICTS = [
  ['skip', 'Skip the row'],
  ['overwrite', 'Overwrite my link'],
  ['rename', 'Import it under a new code'],
] as const;

/**
 * POST /migrations/import as multipart, through XMLHttpRequest: fetch cannot report upload
 * progress, and a 10 MB file on a slow line needs a moving bar.
 */
function upload(form: FormData, token: Record<string, string>, onProgress: (percent: number) => void, onSent: () => void): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/migrations/import');
    for (const [k, v] of Object.entries(token)) xhr.setRequestHeader(k, v);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.upload.onload = onSent;
    xhr.onload = () => {
      const body = xhr.response as ImportResult | ApiErrorBody | null;
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ImportResult);
      else
        reject(
          new ApiError(
            xhr.status,
            body && typeof body === 'object' && 'message' in body ? body : { error: 'Error', message: `Import failed (${xhr.status})`, statusCode: xhr.status },
          ),
        );
    };
    xhr.onerror = () => reject(new ApiError(0, { error: 'Network error', message: 'The server could not be reached. Check your connection.', statusCode: 0 }));
    xhr.send(form);
  });
}

export default function ImportPage() {
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.GET('/api/templates')) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/projects')) });
  const [file, setFile] = useState<File | null>(null);
  const [platform, setPlatform] = useState<Platform>('csv');
  const [templateId, setTemplateId] = useState('');
  const [projectId, setProjectId] = useState('');
  const [conflictStrategy, setConflictStrategy] = useState<(typeof CONFLICTS)[number][0]>('skip');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const toast = useToast();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!templateId && templates.data?.length) setTemplateId((templates.data.find((t) => t.slug === 'default') ?? templates.data[0]).id);
  }, [templateId, templates.data]);

  const busy = phase.kind === 'uploading' || phase.kind === 'importing';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!file) {
      setError(new ApiError(400, { error: 'Bad Request', message: 'Choose a CSV file', statusCode: 400, validation: { file: 'Choose a CSV file' } }));
      return;
    }
    const form = new FormData();
    form.set('platform', platform);
    form.set('templateId', templateId);
    if (projectId) form.set('projectId', projectId);
    form.set('conflictStrategy', conflictStrategy);
    form.set('file', file);
    setPhase({ kind: 'uploading', percent: 0 });
    try {
      const result = await upload(
        form,
        await authHeaders(),
        (percent) => setPhase({ kind: 'uploading', percent }),
        () => setPhase({ kind: 'importing' }),
      );
      setPhase({ kind: 'done', result });
      toast(`Imported ${fmtNumber(result.imported)} link${result.imported === 1 ? '' : 's'}`);
      await queryClient.invalidateQueries({ queryKey: ['links'] });
    } catch (err) {
      setPhase({ kind: 'idle' });
      setError(err);
    }
  };
  const errors = fieldErrors(error);

  return (
    <section className="page">
      <PageHeader title="Import links">
        <Link className="button ghost" to="/links">
          Back to links
        </Link>
      </PageHeader>
      <form className="card form" onSubmit={submit} noValidate aria-label="Import a CSV">
        <p className="hint">
          A CSV export of another link tool (at most 10 MB): one link per row, with a <code>url</code> (or <code>originalUrl</code>) column and optionally{' '}
          <code>shortCode</code>, <code>title</code>, <code>tags</code>, <code>iosUrl</code>, <code>androidUrl</code> and <code>utm_*</code> columns, or a Branch link export.
        </p>
        <ErrorBanner error={error} fields={['file', 'platform', 'templateId', 'projectId', 'conflictStrategy']} />
        <Field label="CSV file" error={errors.file}>
          {(p) => <input {...p} type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
        </Field>
        <div className="form-row">
          <SelectField label="Exported from" error={errors.platform} value={platform} onChange={setPlatform} options={PLATFORMS} />
          <SelectField
            label="Template"
            error={errors.templateId}
            hint="Its defaults fill what the CSV leaves out"
            value={templateId}
            onChange={setTemplateId}
            options={namedOptions(templates.data)}
          />
          <SelectField
            label="Project"
            error={errors.projectId}
            value={projectId}
            onChange={setProjectId}
            options={[['', 'No project'], ...namedOptions(projects.data)]}
          />
          <SelectField label="When a short code is taken" error={errors.conflictStrategy} value={conflictStrategy} onChange={setConflictStrategy} options={CONFLICTS} />
        </div>
        {phase.kind === 'uploading' && (
          <div className="progress-line" role="status">
            <progress max={100} value={phase.percent} aria-label="Upload progress" /> Uploading… {phase.percent}%
          </div>
        )}
        {phase.kind === 'importing' && (
          <div className="progress-line" role="status">
            <progress aria-label="Import progress" /> Importing the rows…
          </div>
        )}
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={busy}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      {phase.kind === 'done' && <ImportReport result={phase.result} />}
    </section>
  );
}

function ImportReport({ result }: { result: ImportResult }) {
  return (
    <section className="card form" aria-label="Import report" data-testid="import-report">
      <h2>Import report</h2>
      <div className="grid-3">
        <Stat label="Imported" value={fmtNumber(result.imported)} plain />
        <Stat label="Skipped" value={fmtNumber(result.skipped)} plain />
        <Stat label="Failed" value={fmtNumber(result.failed)} plain />
      </div>
      {result.errors.length > 0 ? (
        <div className="table-wrap">
          <table className="plain" aria-label="Rows that failed">
            <thead>
              <tr>
                <th className="num">Row</th>
                <th>Problem</th>
              </tr>
            </thead>
            <tbody>
              {result.errors.map((e) => (
                <tr key={`${e.row}:${e.message}`}>
                  <td className="num">{e.row}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="hint">Every row went in.</p>
      )}
      <div className="form-actions">
        <Link className="button" to="/links">
          See the links
        </Link>
      </div>
    </section>
  );
}
