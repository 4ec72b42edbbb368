import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useToast } from '../components/toasts';
import { CheckGroup, DEVICES, RulesEditor, VariantsEditor, type RuleState, type VariantState } from './link-form-parts';

type LinkResponse = components['schemas']['LinkResponseDto'];
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
  domain: string;
  password: string;
  removePassword: boolean;
  expiredUrl: string;
  maxClicks: string;
  cloak: boolean;
  publicStats: boolean;
  variants: VariantState[];
  rules: RuleState[];
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
  domain: '',
  password: '',
  removePassword: false,
  expiredUrl: '',
  maxClicks: '',
  cloak: false,
  publicStats: false,
  variants: [],
  rules: [],
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
    domain: l.domain,
    expiredUrl: l.expiredUrl ?? '',
    maxClicks: l.maxClicks == null ? '' : String(l.maxClicks),
    cloak: l.cloak,
    publicStats: l.publicStats,
    variants: (l.variants ?? []).map((v) => ({ url: v.url, weight: String(v.weight) })),
    rules: (l.redirectRules ?? []).map((r) => {
      const c = r.conditions as { countries?: string[]; languages?: string[]; devices?: string[]; os?: string[]; browsers?: string[]; query?: Record<string, string>; after?: string; before?: string };
      return {
        url: r.url,
        countries: (c.countries ?? []).join(', '),
        languages: (c.languages ?? []).join(', '),
        devices: c.devices ?? [],
        os: c.os ?? [],
        browsers: c.browsers ?? [],
        query: Object.entries(c.query ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(', '),
        after: toLocalInput(c.after ?? null),
        before: toLocalInput(c.before ?? null),
      };
    }),
  };
}

/** A rule's conditions as the API takes them: only what the person filled in. */
function ruleBody(r: RuleState): { conditions: Record<string, unknown>; url: string } {
  const conditions: Record<string, unknown> = {};
  if (list(r.countries).length) conditions.countries = list(r.countries).map((c) => c.toUpperCase());
  if (list(r.languages).length) conditions.languages = list(r.languages).map((c) => c.toLowerCase());
  if (r.devices.length) conditions.devices = r.devices;
  if (r.os.length) conditions.os = r.os;
  if (r.browsers.length) conditions.browsers = r.browsers;
  const query = list(r.query).map((pair) => {
    const at = pair.indexOf('=');
    return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
  });
  if (query.length) conditions.query = Object.fromEntries(query);
  if (r.after) conditions.after = new Date(r.after).toISOString();
  if (r.before) conditions.before = new Date(r.before).toISOString();
  return { conditions, url: r.url.trim() };
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
function toBody(f: FormState, editing: boolean, original?: LinkResponse): Record<string, unknown> {
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
  body.expiredUrl = str(f.expiredUrl);
  body.maxClicks = f.maxClicks.trim() ? Number(f.maxClicks) : blank;
  body.variants = f.variants.length ? f.variants.map((v) => ({ url: v.url.trim(), weight: Number(v.weight) })) : blank;
  body.redirectRules = f.rules.length ? f.rules.map(ruleBody) : blank;
  if (editing || f.cloak) body.cloak = f.cloak;
  if (editing || f.publicStats) body.publicStats = f.publicStats;
  // The domain only when chosen (create) or changed (edit: the link moves).
  if (f.domain && f.domain !== original?.domain) body.domain = f.domain;
  if (f.password) body.password = f.password;
  else if (editing && f.removePassword) body.password = null;
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
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => unwrap(api.GET('/api/domains')) });
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
        const body = toBody(f, true, link.data) as unknown as UpdateBody;
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
  const exact = (path: string) => errors[path];
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
  const known = [...Object.keys(EMPTY), 'utmParameters', 'targetingRules', 'variants', 'redirectRules'];
  // Every error the form shows next to a control: the banner lists only the others.
  const shown = Object.keys(errors).filter((k) => known.includes(k.split(/[.[]/)[0]));
  const verified = (domains.data ?? []).filter((d) => d.status === 'verified');
  const defaultDomain = verified.find((d) => d.isDefault);

  return (
    <section className="page">
      <PageHeader title={editing ? 'Edit link' : 'New link'}>
        <Link className="button ghost" to={editing ? `/links/${id}` : '/links'}>
          Cancel
        </Link>
      </PageHeader>
      <form className="layout-form" onSubmit={submit} noValidate>
        <div className="form">
          <ErrorBanner error={save.error} fields={shown} />
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
            <Field
              label="Domain"
              error={err('domain')}
              hint={
                verified.length === 0 ? (
                  <>
                    Short links use the service&apos;s domain. <Link to="/domains">Add your own domain</Link>
                  </>
                ) : editing ? (
                  'Changing it moves the link: the old short URL stops working'
                ) : undefined
              }
            >
              {(p) => (
                <select {...p} value={f.domain} onChange={(e) => set('domain', e.target.value)}>
                  {!editing && <option value="">{defaultDomain ? `${defaultDomain.domain} (default)` : 'Default domain'}</option>}
                  {editing && !verified.some((d) => d.domain === f.domain) && <option value={f.domain}>{f.domain}</option>}
                  {verified.map((d) => (
                    <option key={d.id} value={d.domain}>
                      {d.domain}
                      {d.isDefault ? ' (default)' : ''}
                    </option>
                  ))}
                </select>
              )}
            </Field>
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
            {exact('utmParameters') && <div className="field-error">{exact('utmParameters')}</div>}
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
            <CheckGroup
              label="Devices"
              options={DEVICES}
              value={f.devices}
              onChange={(devices) => set('devices', devices)}
              error={err('targetingRules.devices') ?? err('targetingRules.platforms')}
            />
            {exact('targetingRules') && <div className="field-error">{exact('targetingRules')}</div>}
          </fieldset>

          <VariantsEditor value={f.variants} onChange={(v) => set('variants', v)} err={exact} />
          <RulesEditor value={f.rules} onChange={(r) => set('rules', r)} err={exact} />

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
            <legend>Access and lifetime</legend>
            <div className="form-row">
              <Field
                label="Password"
                error={err('password')}
                hint={editing && link.data?.hasPassword ? 'This link has a password: type a new one to change it' : 'Visitors must enter it; 4-128 characters'}
              >
                {(p) => (
                  <input
                    {...p}
                    type="password"
                    autoComplete="new-password"
                    value={f.password}
                    disabled={f.removePassword}
                    onChange={(e) => set('password', e.target.value)}
                  />
                )}
              </Field>
              {text('maxClicks', 'Click limit', { type: 'number', min: 1, placeholder: 'Unlimited' }, 'The link expires after this many clicks')}
            </div>
            {editing && link.data?.hasPassword && (
              <label className="checkbox">
                <input type="checkbox" checked={f.removePassword} onChange={(e) => setF((s) => ({ ...s, removePassword: e.target.checked, password: '' }))} /> Remove the password
              </label>
            )}
            <div className="form-row">
              {text('expiresAt', 'Expires at', { type: 'datetime-local' }, 'In your time zone')}
              {text('expiredUrl', 'After expiry, send visitors to', { type: 'url', placeholder: 'https://example.com/sale-over' }, 'Instead of the “link expired” page')}
            </div>
            {text('tags', 'Tags', { placeholder: 'spring, email' }, 'Comma-separated, up to 10')}
            <label className="checkbox">
              <input type="checkbox" checked={f.cloak} onChange={(e) => set('cloak', e.target.checked)} /> Cloak: show the destination under the short URL
            </label>
            {err('cloak') && <div className="field-error">{err('cloak')}</div>}
            <label className="checkbox">
              <input type="checkbox" checked={f.publicStats} onChange={(e) => set('publicStats', e.target.checked)} /> Public stats page
            </label>
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
              <div className="hint">Short link</div>
              <div className="preview-url" data-testid="short-preview">
                {editing && link.data && f.domain === link.data.domain
                  ? link.data.shortUrl
                  : `${f.domain || defaultDomain?.domain || (editing ? link.data?.domain : 'the service’s domain')}/${editing ? link.data?.shortCode : f.customCode.trim() || '(random code)'}`}
              </div>
            </div>
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
