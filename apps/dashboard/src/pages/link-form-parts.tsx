import type { ReactNode } from 'react';
import type { components } from '../api/schema';
import { Field, FieldError } from '../components/ui';

type Conditions = components['schemas']['RedirectRuleConditionsDto'];
type Device = NonNullable<Conditions['devices']>[number];
type Os = NonNullable<Conditions['os']>[number];
type Browser = NonNullable<Conditions['browsers']>[number];

/** One A/B variant as the form holds it. */
export interface VariantState {
  url: string;
  weight: string;
}

/** One redirect rule as the form holds it (lists as comma-separated text, dates as local input values). */
export interface RuleState {
  url: string;
  countries: string;
  languages: string;
  devices: Device[];
  os: Os[];
  browsers: Browser[];
  query: string;
  after: string;
  before: string;
}

export const EMPTY_RULE: RuleState = { url: '', countries: '', languages: '', devices: [], os: [], browsers: [], query: '', after: '', before: '' };

/** Targeting as the form holds it (countries and languages as comma-separated text). */
export interface TargetingState {
  countries: string;
  languages: string;
  devices: Device[];
}

export const EMPTY_TARGETING: TargetingState = { countries: '', languages: '', devices: [] };

export const DEVICES: ReadonlyArray<readonly [Device, string]> = [
  ['ios', 'iOS'],
  ['android', 'Android'],
  ['web', 'Web'],
];
const OS: readonly Os[] = ['iOS', 'Android', 'Windows', 'macOS', 'Linux'];
const BROWSERS: readonly Browser[] = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet', 'Opera'];

export const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A `datetime-local` input's value for an ISO instant (in the viewer's zone). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A saved rule as the form holds it. */
export function ruleState(r: components['schemas']['RedirectRuleResponseDto']): RuleState {
  const c = r.conditions;
  return {
    url: r.url,
    countries: (c.countries ?? []).join(', '),
    languages: (c.languages ?? []).join(', '),
    devices: c.devices ?? [],
    os: (c.os ?? []) as Os[],
    browsers: (c.browsers ?? []) as Browser[],
    query: Object.entries(c.query ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(', '),
    after: toLocalInput(c.after),
    before: toLocalInput(c.before),
  };
}

/** A rule as the API takes it: only the conditions the person filled in. */
export function ruleBody(r: RuleState): components['schemas']['RedirectRuleDto'] {
  const conditions: Conditions = {};
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

type ErrorOf = (path: string) => string | undefined;

/** A group of checkboxes for a list field (devices, OS, browsers). */
export function CheckGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  error,
}: {
  label: string;
  options: ReadonlyArray<readonly [T, string]>;
  value: T[];
  onChange: (next: T[]) => void;
  error?: string;
}) {
  return (
    <div className="field">
      <div role="group" aria-label={label} className="check-group">
        <span className="group-label">{label}</span>
        {options.map(([v, text]) => (
          <label key={v} className="checkbox">
            <input type="checkbox" checked={value.includes(v)} onChange={(e) => onChange(e.target.checked ? [...value, v] : value.filter((x) => x !== v))} />
            {text}
          </label>
        ))}
      </div>
      <FieldError message={error} />
    </div>
  );
}

/** A/B variants: destination + weight rows, the running total, split evenly. */
export function VariantsEditor({ value, onChange, err }: { value: VariantState[]; onChange: (next: VariantState[]) => void; err: ErrorOf }) {
  const total = value.reduce((n, v) => n + (Number(v.weight) || 0), 0);
  const set = (i: number, patch: Partial<VariantState>) => onChange(value.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  const evenly = (list: VariantState[]) => {
    const base = Math.floor(100 / list.length);
    return list.map((v, i) => ({ ...v, weight: String(i === 0 ? 100 - base * (list.length - 1) : base) }));
  };
  return (
    <fieldset>
      <legend>A/B variants</legend>
      <p className="hint">Split visitors between 2 to 10 destinations; the weights are percentages and must add up to 100. Leave empty to send everyone to the destination.</p>
      {value.map((v, i) => (
        <div className="list-item" key={i}>
          <Field label={`Variant ${i + 1} URL`} error={err(`variants[${i}].url`) ?? err(`variants[${i}]`)} className="grow">
            {(p) => <input {...p} type="url" value={v.url} placeholder="https://example.com/b" onChange={(e) => set(i, { url: e.target.value })} />}
          </Field>
          <Field label={`Variant ${i + 1} weight`} error={err(`variants[${i}].weight`)} className="narrow">
            {(p) => <input {...p} type="number" min={1} max={100} value={v.weight} onChange={(e) => set(i, { weight: e.target.value })} />}
          </Field>
          <button type="button" className="button small ghost" aria-label={`Remove variant ${i + 1}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      {value.length > 0 && (
        <div className={total === 100 ? 'hint' : 'field-error'} data-testid="variants-total">
          Total {total} of 100{total === 100 ? '' : ' — the weights must add up to 100'}
        </div>
      )}
      <FieldError message={err('variants')} />
      <div className="page-actions">
        <button
          type="button"
          className="button small"
          disabled={value.length >= 10}
          onClick={() => onChange(evenly(value.length === 0 ? [{ url: '', weight: '' }, { url: '', weight: '' }] : [...value, { url: '', weight: '' }]))}
        >
          {value.length === 0 ? 'Add an A/B test' : 'Add variant'}
        </button>
        {value.length > 1 && (
          <button type="button" className="button small ghost" onClick={() => onChange(evenly(value))}>
            Split evenly
          </button>
        )}
      </div>
    </fieldset>
  );
}

/** Redirect rules: ordered; each with its destination and conditions (all must hold). */
export function RulesEditor({ value, onChange, err }: { value: RuleState[]; onChange: (next: RuleState[]) => void; err: ErrorOf }) {
  const set = (i: number, patch: Partial<RuleState>) => onChange(value.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: number) => {
    const next = [...value];
    const [r] = next.splice(i, 1);
    next.splice(i + by, 0, r);
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Redirect rules</legend>
      <p className="hint">The first rule whose conditions all hold sends the visitor to its URL; visitors no rule matches go to the destination (or the A/B variants).</p>
      {value.map((r, i) => {
        const c = (k: string) => err(`redirectRules[${i}].conditions.${k}`);
        const text = (k: 'countries' | 'languages' | 'query', label: string, placeholder: string, hint: ReactNode) => (
          <Field label={label} error={c(k)} hint={hint}>
            {(p) => <input {...p} value={r[k]} placeholder={placeholder} onChange={(e) => set(i, { [k]: e.target.value })} />}
          </Field>
        );
        return (
          <div className="rule card" key={i} role="group" aria-label={`Rule ${i + 1}`}>
            <div className="rule-head">
              <strong>Rule {i + 1}</strong>
              <div className="page-actions">
                <button type="button" className="button small ghost" disabled={i === 0} aria-label={`Move rule ${i + 1} up`} onClick={() => move(i, -1)}>
                  ↑
                </button>
                <button type="button" className="button small ghost" disabled={i === value.length - 1} aria-label={`Move rule ${i + 1} down`} onClick={() => move(i, 1)}>
                  ↓
                </button>
                <button type="button" className="button small ghost" aria-label={`Remove rule ${i + 1}`} onClick={() => onChange(value.filter((_, j) => j !== i))}>
                  Remove
                </button>
              </div>
            </div>
            <Field label={`Rule ${i + 1} URL`} error={err(`redirectRules[${i}].url`)}>
              {(p) => <input {...p} type="url" value={r.url} placeholder="https://example.com/us" onChange={(e) => set(i, { url: e.target.value })} />}
            </Field>
            <div className="form-row">
              {text('countries', 'Countries', 'US, CA', 'ISO codes, comma-separated')}
              {text('languages', 'Languages', 'en, fr', 'ISO 639-1 codes')}
              {text('query', 'Query parameters', 'ref=newsletter', 'name=value, comma-separated: all must match')}
            </div>
            <CheckGroup label="Devices" options={DEVICES} value={r.devices} onChange={(devices) => set(i, { devices })} error={c('devices')} />
            <CheckGroup label="Operating systems" options={OS.map((o) => [o, o] as const)} value={r.os} onChange={(os) => set(i, { os })} error={c('os')} />
            <CheckGroup label="Browsers" options={BROWSERS.map((o) => [o, o] as const)} value={r.browsers} onChange={(browsers) => set(i, { browsers })} error={c('browsers')} />
            <div className="form-row">
              <Field label="From" error={c('after')} hint="In your time zone">
                {(p) => <input {...p} type="datetime-local" value={r.after} onChange={(e) => set(i, { after: e.target.value })} />}
              </Field>
              <Field label="Until" error={c('before')}>
                {(p) => <input {...p} type="datetime-local" value={r.before} onChange={(e) => set(i, { before: e.target.value })} />}
              </Field>
            </div>
            <FieldError message={err(`redirectRules[${i}].conditions`) ?? err(`redirectRules[${i}]`)} />
          </div>
        );
      })}
      <FieldError message={err('redirectRules')} />
      <div className="page-actions">
        <button type="button" className="button small" disabled={value.length >= 20} onClick={() => onChange([...value, { ...EMPTY_RULE }])}>
          Add a rule
        </button>
      </div>
    </fieldset>
  );
}
