import { LinkValues } from './link-fields';
import { UtmParameters } from './link-shapes';

const set = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

/**
 * The parameters of a Firebase Dynamic Links long link (and the columns of its metadata
 * export, where each is written `<label> (<parameter>)`), with the export's labels.
 */
export const FDL_PARAMETERS = {
  link: 'Deep link',
  apn: 'Android package name',
  afl: 'Android fallback link',
  amv: 'Android minimum package version code',
  ibi: 'iOS bundle ID',
  ifl: 'iOS fallback link',
  ius: 'iOS custom scheme',
  ipfl: 'iOS iPad fallback link',
  ipbi: 'iOS iPad bundle ID',
  isi: 'iOS app store ID',
  imv: 'iOS minimum version',
  efr: 'Enable forced redirect?',
  ofl: 'Desktop fallback link',
  st: 'Social title',
  sd: 'Social description',
  si: 'Social image link',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  utm_term: 'UTM term',
  utm_content: 'UTM content',
} as const;

export type FdlParameter = keyof typeof FDL_PARAMETERS;
export type FdlParams = Partial<Record<FdlParameter, string>>;

export const FDL_PARAMETER_NAMES = Object.keys(FDL_PARAMETERS) as FdlParameter[];

const PLAY_STORE = 'https://play.google.com/store/apps/details?id=';
const APP_STORE = 'https://apps.apple.com/app/id';

/** An Android package name or an App Store id, as FDL accepts them (anything else is ignored). */
const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const APP_STORE_ID = /^\d{1,15}$/;

/**
 * What an FDL long link does, as a link's values: `link` is the destination; on Android the
 * fallback link, else the app's Play Store page (`apn`); on iOS the fallback link, else the
 * App Store page (`isi`); elsewhere the desktop fallback (`ofl`); `st`/`sd`/`si` the social
 * preview; `utm_*` the UTM parameters. URLs are checked by the caller's validation.
 */
export function fdlLinkValues(p: FdlParams): Partial<LinkValues> {
  const apn = set(p.apn);
  const isi = set(p.isi);
  const utm: UtmParameters = {};
  for (const key of ['source', 'medium', 'campaign', 'term', 'content'] as const) {
    const value = set(p[`utm_${key}`]);
    if (value) utm[key] = value;
  }
  const values: Partial<LinkValues> = {
    originalUrl: set(p.link),
    androidUrl: set(p.afl) ?? (apn && ANDROID_PACKAGE.test(apn) ? `${PLAY_STORE}${encodeURIComponent(apn)}` : undefined),
    iosUrl: set(p.ifl) ?? set(p.ipfl) ?? (isi && APP_STORE_ID.test(isi) ? `${APP_STORE}${isi}` : undefined),
    webFallbackUrl: set(p.ofl),
    ogTitle: set(p.st),
    ogDescription: set(p.sd),
    ogImageUrl: set(p.si),
    utmParameters: Object.keys(utm).length ? utm : undefined,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<LinkValues>;
}

/** The FDL parameters of a query string (first value of each; others ignored). */
export function fdlParamsOf(query: URLSearchParams): FdlParams {
  const out: FdlParams = {};
  for (const name of FDL_PARAMETER_NAMES) {
    const value = query.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

/** An absolute http(s) URL (what FDL's `link` and fallback links must be). */
export function isHttpUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
