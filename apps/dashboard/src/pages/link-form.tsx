import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useToast } from '../components/toasts';

type LinkResponse = components['schemas']['LinkResponseDoc'];
type CreateBody = components['schemas']['CreateLinkDto'];
type UpdateBody = components['schemas']['UpdateLinkDto'];

const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
type Utm = Record<(typeof UTM_KEYS)[number], string>;

/** Every editable field of a link as the form holds it (strings; empty = unset). */
interface FormState {
  originalUrl: string;
  title: string;
  description: string;
  templateId: string;
  projectId: string;
  customCode: string;
  iosUrl: string;
  androidUrl: string;
  webFallbackUrl: string;
  appScheme: string;
  deepLinkPath: string;
  deepLinkParameters: string;
  iosUniversalLink: string;
  androidAppLink: string;
  attributionWindowHours: string;
  countries: string;
  languages: string;
  devices: string[];
  ogTitle: string;
  ogDescription: string;
  ogImageUrl: string;
  tags: string;
  expiresAt: string;
  isActive: boolean;
  utm: Utm;
}

const EMPTY: FormState = {
  originalUrl: '',
  title: '',
  description: '',
  templateId: '',
  projectId: '',
  customCode: '',
  iosUrl: '',
  androidUrl: '',
  webFallbackUrl: '',
  appScheme: '',
  deepLinkPath: '',
  deepLinkParameters: '',
  iosUniversalLink: '',
  androidAppLink: '',
  attributionWindowHours: '',
  countries: '',
  languages: '',
  devices: [],
  ogTitle: '',
  ogDescription: '',
  ogImageUrl: '',
  tags: '',
  expiresAt: '',
  isActive: true,
  utm: { source: '', medium: '', campaign: '', term: '', content: '' },
};

function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLink(l: LinkResponse): FormState {
  const utm = (l.utmParameters ?? {}) as Partial<Utm>;
  const targeting = (l.targetingRules ?? {}) as { countries?: string[]; languages?: string[]; devices?: string[] };
  return {
    ...EMPTY,
    originalUrl: l.originalUrl,
    title: l.title ?? '',
    description: l.description ?? '',
    templateId: l.templateId,
    projectId: l.projectId ?? '',
    iosUrl: l.iosUrl ?? '',
    androidUrl: l.androidUrl ?? '',
    webFallbackUrl: l.webFallbackUrl ?? '',
    appScheme: l.appScheme ?? '',
    deepLinkPath: l.deepLinkPath ?? '',
    deepLinkParameters: l.deepLinkParameters ? JSON.stringify(l.deepLinkParameters) : '',
    iosUniversalLink: l.iosUniversalLink ?? '',
    androidAppLink: l.androidAppLink ?? '',
    attributionWindowHours: String(l.attributionWindowHours ?? ''),
    countries: (targeting.countries ?? []).join(', '),
    languages: (targeting.languages ?? []).join(', '),
    devices: targeting.devices ?? [],
    ogTitle: l.ogTitle ?? '',
    ogDescription: l.ogDescription ?? '',
    ogImageUrl: l.ogImageUrl ?? '',
    tags: l.tags.join(', '),
    expiresAt: toLocalInput(l.expiresAt),
    isActive: l.isActive,
    utm: { source: utm.source ?? '', medium: utm.medium ?? '', campaign: utm.campaign ?? '', term: utm.term ?? '', content: utm.content ?? '' },
  };
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The destination with the UTM parameters, as a visitor will land on it. */
export function withUtm(url: string, utm: Utm): string {
  try {
    const u = new URL(url);
    for (const key of UTM_KEYS) if (utm[key]) u.searchParams.set(`utm_${key}`, utm[key]);
    return u.toString();
  } catch {
    return url;
  }
}

/**
 * The request body. Unset fields: left out on create, `null` on edit (so clearing a field
 * clears it). Some nullable string fields are typed `object` by the document's generator:
 * they are sent as strings, which is what the API validates.
 */
function toBody(f: FormState, editing: boolean): Record<string, unknown> {
  const blank = editing ? null : undefined;
  const str = (v: string) => (v.trim() ? v.trim() : blank);
  const utmEntries = UTM_KEYS.filter((k) => f.utm[k].trim()).map((k) => [editing ? k : `utm_${k}`, f.utm[k].trim()]);
  const targeting: Record<string, string[]> = {};
  if (list(f.countries).length) targeting.countries = list(f.countries).map((c) => c.toUpperCase());
  if (list(f.languages).length) targeting.languages = list(f.languages).map((c) => c.toLowerCase());
  if (f.devices.length) targeting[editing ? 'devices' : 'platforms'] = f.devices;
  let deepLinkParameters: unknown = blank;
  if (f.deepLinkParameters.trim()) {
    try {
      deepLinkParameters = JSON.parse(f.deepLinkParameters);
    } catch {
      deepLinkParameters = f.deepLinkParameters; // the API answers with the field's message
    }
  }
  const body: Record<string, unknown> = {
    originalUrl: f.originalUrl.trim() || undefined,
    title: str(f.title),
    description: str(f.description),
    iosUrl: str(f.iosUrl),
    androidUrl: str(f.androidUrl),
    webFallbackUrl: str(f.webFallbackUrl),
    appScheme: str(f.appScheme),
    deepLinkPath: str(f.deepLinkPath),
    deepLinkParameters,
    iosUniversalLink: str(f.iosUniversalLink),
    androidAppLink: str(f.androidAppLink),
    attributionWindowHours: f.attributionWindowHours ? Number(f.attributionWindowHours) : undefined,
    utmParameters: utmEntries.length ? Object.fromEntries(utmEntries) : blank,
    targetingRules: Object.keys(targeting).length ? targeting : blank,
    ogTitle: str(f.ogTitle),
    ogDescription: str(f.ogDescription),
    ogImageUrl: str(f.ogImageUrl),
    tags: list(f.tags),
    expiresAt: f.expiresAt ? new Date(f.expiresAt).toISOString() : blank,
    templateId: f.templateId || undefined,
    projectId: f.projectId || blank,
  };
  if (editing) body.isActive = f.isActive;
  else if (f.customCode.trim()) body.customCode = f.customCode.trim();
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

function OgPreview({ f }: { f: FormState }) {
  let host = '';
  try {
    host = new URL(f.originalUrl).host;
  } catch {
    host = 'your-site.com';
  }
  const title = f.ogTitle || f.title || 'Title of the page';
  const description = f.ogDescription || f.description || 'Description shown when the link is shared.';
  return (
    <div className="og-card" aria-label="Social preview" role="img">
      <div className="og-image" style={f.ogImageUrl ? { backgroundImage: `url("${encodeURI(f.ogImageUrl)}")` } : undefined}>
        {!f.ogImageUrl && 'No image'}
      </div>
      <div className="og-text">
        <span className="og-host">{host}</span>
        <span className="og-title">{title}</span>
        <span className="og-desc">{description}</span>
      </div>
    </div>
  );
}

export default function LinkFormPage() {
  const { id } = useParams();
  const editing = Boolean(id);
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const link = useQuery({
    queryKey: ['link', id],
    enabled: editing,
    queryFn: () => unwrap(api.GET('/api/links/{id}', { params: { path: { id: id as string } } })),
  });
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.GET('/api/templates')) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/projects')) });
  const [f, setF] = useState<FormState>(EMPTY);
  useEffect(() => {
    if (link.data) setF(fromLink(link.data));
  }, [link.data]);
  useEffect(() => {
    if (!editing && !f.templateId && templates.data?.length) {
      const preferred = templates.data.find((t) => t.slug === 'default') ?? templates.data[0];
      setF((s) => ({ ...s, templateId: preferred.id }));
    }
  }, [editing, f.templateId, templates.data]);

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setF((s) => ({ ...s, [key]: value }));
  const setUtm = (key: keyof Utm, value: string) => setF((s) => ({ ...s, utm: { ...s.utm, [key]: value } }));

  const save = useMutation({
    mutationFn: async () => {
      if (editing) {
        const body = toBody(f, true) as unknown as UpdateBody;
        return (await unwrap(api.PUT('/api/links/{id}', { params: { path: { id: id as string } }, body }))).id;
      }
      const body = toBody(f, false) as unknown as CreateBody;
      return (await unwrap(api.POST('/api/links', { body }))).id;
    },
    onSuccess: async (savedId) => {
      toast(editing ? 'Link saved' : 'Link created');
      await queryClient.invalidateQueries({ queryKey: ['links'] });
      await queryClient.invalidateQueries({ queryKey: ['link', savedId] });
      navigate(`/links/${savedId}`);
    },
  });
  const errors = fieldErrors(save.error);
  const err = (name: string) => errors[name] ?? Object.entries(errors).find(([k]) => k.startsWith(`${name}.`))?.[1];
  const preview = useMemo(() => withUtm(f.originalUrl, f.utm), [f.originalUrl, f.utm]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  if (editing && link.isPending) return <Loading />;
  if (editing && link.error) return <ErrorBanner error={link.error} />;

  const text = (name: keyof FormState, label: string, props: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} error={err(name)} hint={hint}>
      {(p) => <input {...p} {...props} name={name} value={f[name] as string} onChange={(e) => set(name, e.target.value as never)} />}
    </Field>
  );
  const known = Object.keys(EMPTY);

  return (
    <section className="page">
      <PageHeader title={editing ? 'Edit link' : 'New link'}>
        <Link className="button ghost" to={editing ? `/links/${id}` : '/links'}>
          Cancel
        </Link>
      </PageHeader>
      <form className="layout-form" onSubmit={submit} noValidate>
        <div className="form">
          <ErrorBanner error={save.error} fields={[...known, 'utmParameters', 'targetingRules']} />
          <fieldset>
            <legend>Destination</legend>
            {text('originalUrl', 'Destination URL', { type: 'url', placeholder: 'https://example.com/page', required: true, autoFocus: !editing })}
            <div className="form-row">
              {text('title', 'Title', { placeholder: 'Spring sale' })}
              {!editing && text('customCode', 'Custom short code', { placeholder: 'spring26' }, '4-30 letters and digits; random if empty')}
            </div>
            <div className="form-row">
              <Field label="Template" error={err('templateId')}>
                {(p) => (
                  <select {...p} value={f.templateId} onChange={(e) => set('templateId', e.target.value)}>
                    {templates.data?.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Project" error={err('projectId')}>
                {(p) => (
                  <select {...p} value={f.projectId} onChange={(e) => set('projectId', e.target.value)}>
                    <option value="">No project</option>
                    {projects.data?.map((pr) => (
                      <option key={pr.id} value={pr.id}>
                        {pr.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            <Field label="Description" error={err('description')}>
              {(p) => <textarea {...p} value={f.description} onChange={(e) => set('description', e.target.value)} />}
            </Field>
          </fieldset>

          <fieldset>
            <legend>UTM builder</legend>
            <div className="form-row">
              {UTM_KEYS.map((k) => (
                <Field key={k} label={`utm_${k}`} error={err(`utmParameters.${k}`) ?? err(`utmParameters.utm_${k}`)}>
                  {(p) => (
                    <input
                      {...p}
                      name={`utm_${k}`}
                      value={f.utm[k]}
                      placeholder={{ source: 'newsletter', medium: 'email', campaign: 'spring_sale', term: '', content: 'hero' }[k]}
                      onChange={(e) => setUtm(k, e.target.value)}
                    />
                  )}
                </Field>
              ))}
            </div>
            {err('utmParameters') && <div className="field-error">{err('utmParameters')}</div>}
          </fieldset>

          <fieldset>
            <legend>Apps and devices</legend>
            <div className="form-row">
              {text('iosUrl', 'iOS destination', { type: 'url' })}
              {text('androidUrl', 'Android destination', { type: 'url' })}
              {text('webFallbackUrl', 'Other devices', { type: 'url' })}
            </div>
            <div className="form-row">
              {text('appScheme', 'App scheme', { placeholder: 'myapp' })}
              {text('deepLinkPath', 'Deep link path', { placeholder: 'product/42' })}
              {text('deepLinkParameters', 'Deep link parameters (JSON)', { placeholder: '{"product":"42"}' })}
            </div>
            <div className="form-row">
              {text('iosUniversalLink', 'iOS universal link', { type: 'url' })}
              {text('androidAppLink', 'Android app link', { type: 'url' })}
              {text('attributionWindowHours', 'Attribution window (hours)', { type: 'number', min: 1, max: 2160, placeholder: '168' })}
            </div>
          </fieldset>

          <fieldset>
            <legend>Targeting</legend>
            <div className="form-row">
              {text('countries', 'Countries', { placeholder: 'US, FR' }, 'ISO codes, comma-separated; empty = everywhere')}
              {text('languages', 'Languages', { placeholder: 'en, fr' }, 'ISO 639-1 codes')}
            </div>
            <div role="group" aria-label="Devices" className="page-actions">
              {(['ios', 'android', 'web'] as const).map((d) => (
                <label key={d} className="checkbox">
                  <input
                    type="checkbox"
                    checked={f.devices.includes(d)}
                    onChange={(e) => set('devices', e.target.checked ? [...f.devices, d] : f.devices.filter((x) => x !== d))}
                  />
                  {d === 'ios' ? 'iOS' : d === 'android' ? 'Android' : 'Web'}
                </label>
              ))}
            </div>
            {err('targetingRules') && <div className="field-error">{err('targetingRules')}</div>}
          </fieldset>

          <fieldset>
            <legend>Social preview (Open Graph)</legend>
            <div className="form-row">
              {text('ogTitle', 'OG title')}
              {text('ogImageUrl', 'OG image URL', { type: 'url' })}
            </div>
            <Field label="OG description" error={err('ogDescription')}>
              {(p) => <textarea {...p} value={f.ogDescription} onChange={(e) => set('ogDescription', e.target.value)} />}
            </Field>
          </fieldset>

          <fieldset>
            <legend>Lifecycle</legend>
            <div className="form-row">
              {text('expiresAt', 'Expires at', { type: 'datetime-local' }, 'In your time zone')}
              {text('tags', 'Tags', { placeholder: 'spring, email' }, 'Comma-separated')}
            </div>
            {editing && (
              <label className="checkbox">
                <input type="checkbox" checked={f.isActive} onChange={(e) => set('isActive', e.target.checked)} /> Active
              </label>
            )}
          </fieldset>

          <div className="form-actions">
            <button type="submit" className="button primary" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : editing ? 'Save link' : 'Create link'}
            </button>
          </div>
        </div>
        <aside className="form side" aria-label="Preview">
          <div className="card form">
            <h2>Preview</h2>
            <div>
              <div className="hint">Visitors land on</div>
              <div className="preview-url" data-testid="utm-preview">
                {preview || 'Enter a destination'}
              </div>
            </div>
            <OgPreview f={f} />
          </div>
        </aside>
      </form>
    </section>
  );
}
