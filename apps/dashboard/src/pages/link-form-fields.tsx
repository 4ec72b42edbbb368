import { Link } from 'react-router';
import type { components } from '../api/schema';
import { Field, FieldError } from '../components/ui';
import {
  blank,
  check,
  CheckControl,
  Choice,
  text,
  TextControl,
  textControl,
  url,
  type BodyKey,
  type BodyValue,
  type FieldEditor,
  type LinkBody,
  type LinkResponse,
} from './link-form-editors';
import {
  CheckGroup,
  DEVICES,
  EMPTY_TARGETING,
  list,
  RulesEditor,
  ruleBody,
  ruleState,
  toLocalInput,
  VariantsEditor,
  type RuleState,
  type TargetingState,
  type VariantState,
} from './link-form-parts';

export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type Utm = Record<(typeof UTM_KEYS)[number], string>;

/** The editors of a set of fields, each typed by its own form value and its API field. */
function editors<M>(fields: { [K in keyof M]: FieldEditor<M[K], K & BodyKey> }): { [K in keyof M]: FieldEditor<M[K], K & BodyKey> } {
  return fields;
}

/**
 * Every field of the API's create and update bodies, and how the form edits it. Typed by the
 * generated client: a field the API gains fails `tsc` (EVERY_FIELD_EDITED below) until the form
 * edits it, and LINK_FORM_SECTIONS until the form shows it.
 */
export const FIELDS = editors({
  originalUrl: {
    empty: '',
    read: (l) => l.originalUrl,
    write: (v) => v.trim() || undefined,
    render: (p) => textControl('originalUrl', 'Destination URL', { type: 'url', placeholder: 'https://example.com/page', required: true, autoFocus: !p.ctx.editing })(p),
  },
  title: text('title', 'Title', { placeholder: 'Spring sale' }),
  customCode: {
    empty: '',
    read: () => '',
    write: (v, { editing }) => (editing ? undefined : v.trim() || undefined),
    render: (p) =>
      !p.ctx.editing && textControl('customCode', 'Custom short code', { placeholder: 'spring26' }, '4-30 letters and digits; random if empty')(p),
  },
  templateId: {
    empty: '',
    read: (l) => l.templateId,
    write: (v) => v || undefined,
    render: ({ value, set, ctx }) => <Choice label="Template" error={ctx.err('templateId')} value={value} set={set} options={ctx.templates} />,
  },
  projectId: {
    empty: '',
    read: (l) => l.projectId ?? '',
    write: (v, { editing }) => v || blank(editing),
    render: ({ value, set, ctx }) => <Choice label="Project" error={ctx.err('projectId')} value={value} set={set} options={ctx.projects} none="No project" />,
  },
  domain: {
    empty: '',
    read: (l) => l.domain,
    // Only when chosen (create) or changed (edit: the link moves).
    write: (v, { original }) => (v && v !== original?.domain ? v : undefined),
    render: ({ value, set, ctx }) => {
      const fallback = ctx.domains.find((d) => d.isDefault);
      const hint =
        ctx.domains.length === 0 ? (
          <>
            Short links use the service&apos;s domain. <Link to="/domains">Add your own domain</Link>
          </>
        ) : ctx.editing ? (
          'Changing it moves the link: the old short URL stops working'
        ) : undefined;
      return (
        <Field label="Domain" error={ctx.err('domain')} hint={hint}>
          {(p) => (
            <select {...p} value={value} onChange={(e) => set(e.target.value)}>
              {!ctx.editing && <option value="">{fallback ? `${fallback.domain} (default)` : 'Default domain'}</option>}
              {ctx.editing && !ctx.domains.some((d) => d.domain === value) && <option value={value}>{value}</option>}
              {ctx.domains.map((d) => (
                <option key={d.id} value={d.domain}>
                  {d.domain}
                  {d.isDefault ? ' (default)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    },
  },
  description: text('description', 'Description', undefined, undefined, true),
  utmParameters: {
    empty: { source: '', medium: '', campaign: '', term: '', content: '' } as Utm,
    read: (l) => ({ source: '', medium: '', campaign: '', term: '', content: '', ...l.utmParameters }),
    // Create takes `utm_*` keys, update bare ones (the API accepts both on both).
    write: (v, { editing }) => {
      const out: components['schemas']['UtmParametersDto'] = {};
      for (const k of UTM_KEYS) if (v[k].trim()) out[editing ? k : (`utm_${k}` as const)] = v[k].trim();
      return Object.keys(out).length ? out : blank(editing);
    },
    render: ({ value, set, ctx }) => (
      <>
        <div className="form-row">
          {UTM_KEYS.map((k) => (
            <Field key={k} label={`utm_${k}`} error={ctx.err(`utmParameters.${k}`) ?? ctx.err(`utmParameters.utm_${k}`)}>
              {(p) => (
                <input
                  {...p}
                  name={`utm_${k}`}
                  value={value[k]}
                  placeholder={{ source: 'newsletter', medium: 'email', campaign: 'spring_sale', term: '', content: 'hero' }[k]}
                  onChange={(e) => set({ ...value, [k]: e.target.value })}
                />
              )}
            </Field>
          ))}
        </div>
        <FieldError message={ctx.exact('utmParameters')} />
      </>
    ),
  },
  iosUrl: url('iosUrl', 'iOS destination'),
  androidUrl: url('androidUrl', 'Android destination'),
  webFallbackUrl: url('webFallbackUrl', 'Other devices'),
  appScheme: text('appScheme', 'App scheme', { placeholder: 'myapp' }),
  deepLinkPath: text('deepLinkPath', 'Deep link path', { placeholder: 'product/42' }),
  deepLinkParameters: {
    empty: '',
    read: (l) => (l.deepLinkParameters ? JSON.stringify(l.deepLinkParameters) : ''),
    write: (v, { editing }) => {
      if (!v.trim()) return blank(editing);
      try {
        return JSON.parse(v) as BodyValue<'deepLinkParameters'>;
      } catch {
        // Sent as typed: the API answers with the field's message.
        return v as unknown as BodyValue<'deepLinkParameters'>;
      }
    },
    render: textControl('deepLinkParameters', 'Deep link parameters (JSON)', { placeholder: '{"product":"42"}' }),
  },
  iosUniversalLink: url('iosUniversalLink', 'iOS universal link'),
  androidAppLink: url('androidAppLink', 'Android app link'),
  attributionWindowHours: {
    empty: '',
    read: (l) => String(l.attributionWindowHours ?? ''),
    write: (v) => (v ? Number(v) : undefined),
    render: textControl('attributionWindowHours', 'Attribution window (hours)', { type: 'number', min: 1, max: 2160, placeholder: '168' }),
  },
  targetingRules: {
    empty: EMPTY_TARGETING,
    read: (l) => ({
      countries: (l.targetingRules?.countries ?? []).join(', '),
      languages: (l.targetingRules?.languages ?? []).join(', '),
      devices: (l.targetingRules?.devices ?? []) as TargetingState['devices'],
    }),
    // Create names the devices `platforms`, update `devices` (the API accepts both on both).
    write: (v, { editing }) => {
      const out: components['schemas']['TargetingRulesDto'] = {};
      if (list(v.countries).length) out.countries = list(v.countries).map((c) => c.toUpperCase());
      if (list(v.languages).length) out.languages = list(v.languages).map((c) => c.toLowerCase());
      if (v.devices.length) out[editing ? 'devices' : 'platforms'] = v.devices;
      return Object.keys(out).length ? out : blank(editing);
    },
    render: ({ value, set, ctx }) => (
      <>
        <div className="form-row">
          <TextControl
            name="countries"
            label="Countries"
            value={value.countries}
            set={(countries) => set({ ...value, countries })}
            error={ctx.err('targetingRules.countries')}
            props={{ placeholder: 'US, FR' }}
            hint="ISO codes, comma-separated; empty = everywhere"
          />
          <TextControl
            name="languages"
            label="Languages"
            value={value.languages}
            set={(languages) => set({ ...value, languages })}
            error={ctx.err('targetingRules.languages')}
            props={{ placeholder: 'en, fr' }}
            hint="ISO 639-1 codes"
          />
        </div>
        <CheckGroup
          label="Devices"
          options={DEVICES}
          value={value.devices}
          onChange={(devices) => set({ ...value, devices })}
          error={ctx.err('targetingRules.devices') ?? ctx.err('targetingRules.platforms')}
        />
        <FieldError message={ctx.exact('targetingRules')} />
      </>
    ),
  },
  variants: {
    empty: [] as VariantState[],
    read: (l) => (l.variants ?? []).map((v) => ({ url: v.url, weight: String(v.weight) })),
    write: (v, { editing }) => (v.length ? v.map((x) => ({ url: x.url.trim(), weight: Number(x.weight) })) : blank(editing)),
    render: ({ value, set, ctx }) => <VariantsEditor value={value} onChange={set} err={ctx.exact} />,
  },
  redirectRules: {
    empty: [] as RuleState[],
    read: (l) => (l.redirectRules ?? []).map(ruleState),
    write: (v, { editing }) => (v.length ? v.map(ruleBody) : blank(editing)),
    render: ({ value, set, ctx }) => <RulesEditor value={value} onChange={set} err={ctx.exact} />,
  },
  ogTitle: text('ogTitle', 'OG title'),
  ogImageUrl: url('ogImageUrl', 'OG image URL'),
  ogDescription: text('ogDescription', 'OG description', undefined, undefined, true),
  password: {
    empty: { value: '', remove: false },
    read: () => ({ value: '', remove: false }),
    write: (v, { editing }) => v.value || (editing && v.remove ? null : undefined),
    render: ({ value, set, ctx }) => (
      <Field
        label="Password"
        error={ctx.err('password')}
        hint={ctx.editing && ctx.link?.hasPassword ? 'This link has a password: type a new one to change it' : 'Visitors must enter it; 4-128 characters'}
      >
        {(p) => (
          <input {...p} type="password" autoComplete="new-password" value={value.value} disabled={value.remove} onChange={(e) => set({ ...value, value: e.target.value })} />
        )}
      </Field>
    ),
    below: ({ value, set, ctx }) =>
      ctx.editing &&
      ctx.link?.hasPassword && (
        <label className="checkbox">
          <input type="checkbox" checked={value.remove} onChange={(e) => set({ value: '', remove: e.target.checked })} /> Remove the password
        </label>
      ),
  },
  maxClicks: {
    empty: '',
    read: (l) => (l.maxClicks == null ? '' : String(l.maxClicks)),
    write: (v, { editing }) => (v.trim() ? Number(v) : blank(editing)),
    render: textControl('maxClicks', 'Click limit', { type: 'number', min: 1, placeholder: 'Unlimited' }, 'The link expires after this many clicks'),
  },
  expiresAt: {
    empty: '',
    read: (l) => toLocalInput(l.expiresAt),
    write: (v, { editing }) => (v ? new Date(v).toISOString() : blank(editing)),
    render: textControl('expiresAt', 'Expires at', { type: 'datetime-local' }, 'In your time zone'),
  },
  expiredUrl: url('expiredUrl', 'After expiry, send visitors to', { placeholder: 'https://example.com/sale-over' }, 'Instead of the “link expired” page'),
  tags: {
    empty: '',
    read: (l) => l.tags.join(', '),
    write: (v) => list(v),
    render: textControl('tags', 'Tags', { placeholder: 'spring, email' }, 'Comma-separated, up to 10'),
  },
  cloak: check('cloak', 'Cloak: show the destination under the short URL'),
  publicStats: check('publicStats', 'Public stats page'),
  isActive: {
    empty: true,
    read: (l) => l.isActive,
    write: (v, { editing }) => (editing ? v : undefined),
    render: (p) => p.ctx.editing && <CheckControl {...p} name="isActive" label="Active" />,
  },
});

/** Compile-time: every API field has its editor, and no editor is for a field the API lacks. */
export const EVERY_FIELD_EDITED: [{ [K in BodyKey]-?: unknown }, { [K in keyof typeof FIELDS]: K extends BodyKey ? unknown : never }] = [FIELDS, FIELDS];

/** The form's state: each field's value as its editor holds it. */
export type FormState = { [K in keyof typeof FIELDS]: (typeof FIELDS)[K]['empty'] };

/** A fieldset of the form (none: its field draws its own), as rows of fields (two or more side by side). */
export interface Section {
  legend?: string;
  /** Folded under its legend (open when one of its fields has a value): the essentials stay on top. */
  collapsible?: boolean;
  rows: ReadonlyArray<ReadonlyArray<BodyKey>>;
}

/** Where the form shows each field, in order: the essentials, then the rest in collapsible sections. */
export const LINK_FORM_SECTIONS = [
  { rows: [['originalUrl'], ['title', 'customCode'], ['domain', 'templateId']] },
  { legend: 'Project and description', collapsible: true, rows: [['projectId'], ['description']] },
  { legend: 'UTM builder', collapsible: true, rows: [['utmParameters']] },
  {
    legend: 'Apps and devices',
    collapsible: true,
    rows: [
      ['iosUrl', 'androidUrl', 'webFallbackUrl'],
      ['appScheme', 'deepLinkPath', 'deepLinkParameters'],
      ['iosUniversalLink', 'androidAppLink', 'attributionWindowHours'],
    ],
  },
  { legend: 'Targeting', collapsible: true, rows: [['targetingRules']] },
  { legend: 'A/B test and redirect rules', collapsible: true, rows: [['variants'], ['redirectRules']] },
  { legend: 'Social preview (Open Graph)', collapsible: true, rows: [['ogTitle', 'ogImageUrl'], ['ogDescription']] },
  { legend: 'Access and lifetime', collapsible: true, rows: [['password', 'maxClicks'], ['expiresAt', 'expiredUrl'], ['tags'], ['cloak'], ['publicStats'], ['isActive']] },
] as const satisfies readonly Section[];

type Shown = (typeof LINK_FORM_SECTIONS)[number]['rows'][number][number];
/** Compile-time: the form shows every field of the API's bodies. */
export const EVERY_FIELD_SHOWN: Record<Exclude<BodyKey, Shown>, never> = {};

const FIELD_KEYS = Object.keys(FIELDS) as BodyKey[];
/** One editor, read through its general type: each entry of FIELDS is typed for its own value. */
export const editorOf = (key: BodyKey) => FIELDS[key] as unknown as FieldEditor<unknown, BodyKey>;
const formOf = (value: (key: BodyKey) => unknown) => Object.fromEntries(FIELD_KEYS.map((key) => [key, value(key)])) as FormState;

/** The form of a new link. */
export const emptyForm = (): FormState => formOf((key) => editorOf(key).empty);
/** The form of a saved link. */
export const readForm = (link: LinkResponse): FormState => formOf((key) => editorOf(key).read(link));

/** The request body of the form: create leaves unset fields out, edit sends them as null. */
export function writeBody(form: FormState, ctx: { editing: boolean; original?: LinkResponse }): LinkBody {
  const body: Record<string, unknown> = {};
  for (const key of FIELD_KEYS) {
    const value = editorOf(key).write(form[key], ctx);
    if (value !== undefined) body[key] = value;
  }
  return body as LinkBody;
}
