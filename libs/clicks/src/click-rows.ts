import { clickTimeIso } from '@dl/platform/click-codec';
import { EnrichedClick } from './enrich';
import { copyNumber, copyText } from './pg-encoding';
import { VisitorRow } from './rollups';

/** The columns of `clicks` a click batch writes, in the order of clickRow's keys and clickCopyLine's fields. */
export const CLICK_COLUMNS = `id, organization_id, link_id, clicked_at, ip_address, user_agent, referrer, referrer_host,
  accept_language, language, device_type, platform, browser, browser_version, os, os_version,
  country_code, country_name, region, city, timezone, latitude, longitude,
  utm_source, utm_medium, utm_campaign, utm_term, utm_content, is_bot, visitor_hash, fingerprint,
  variant_index, rule_index`;

/** A click as a json row of the INSERT that skips stored clicks: short keys, a null fact left out (json_to_recordset reads a missing key as NULL). */
export function clickRow(c: EnrichedClick): object {
  return {
    i: c.id,
    o: c.organizationId,
    l: c.linkId,
    t: c.clickedAt,
    ip: c.ipAddress ?? undefined,
    ua: c.userAgent ?? undefined,
    r: c.referrer ?? undefined,
    rh: c.referrerHost ?? undefined,
    al: c.acceptLanguage ?? undefined,
    la: c.language ?? undefined,
    d: c.deviceType ?? undefined,
    p: c.platform ?? undefined,
    b: c.browser ?? undefined,
    bv: c.browserVersion ?? undefined,
    os: c.os ?? undefined,
    ov: c.osVersion ?? undefined,
    cc: c.countryCode ?? undefined,
    cn: c.countryName ?? undefined,
    rg: c.region ?? undefined,
    ci: c.city ?? undefined,
    tz: c.timezone ?? undefined,
    lat: c.latitude ?? undefined,
    lon: c.longitude ?? undefined,
    us: c.utmSource ?? undefined,
    um: c.utmMedium ?? undefined,
    uc: c.utmCampaign ?? undefined,
    ut: c.utmTerm ?? undefined,
    un: c.utmContent ?? undefined,
    bot: c.isBot,
    v: c.visitorHash,
    f: c.fingerprint ?? undefined,
    vi: c.variantIndex ?? undefined,
    ri: c.ruleIndex ?? undefined,
  };
}

/** The record type json_to_recordset reads clickRow's keys with, in CLICK_COLUMNS' order. */
export const CLICK_ROW_TYPE = `i uuid, o uuid, l uuid, t timestamptz, ip text, ua text, r text, rh text, al text, la text, d text, p text,
  b text, bv text, os text, ov text, cc text, cn text, rg text, ci text, tz text, lat float8, lon float8,
  us text, um text, uc text, ut text, un text, bot boolean, v text, f text, vi int2, ri int2`;

/**
 * A click as a line of `COPY clicks (CLICK_COLUMNS) FROM STDIN`: its fields joined into one flat
 * string (a template literal of 66 parts would build a tree of string pieces for `write` to
 * flatten again).
 */
export function clickCopyLine(c: EnrichedClick): string {
  const t = copyText;
  return [
    c.id, c.organizationId, c.linkId, clickTimeIso(c.clickedAt), t(c.ipAddress), t(c.userAgent),
    t(c.referrer), t(c.referrerHost), t(c.acceptLanguage), t(c.language), t(c.deviceType), t(c.platform),
    t(c.browser), t(c.browserVersion), t(c.os), t(c.osVersion), t(c.countryCode), t(c.countryName),
    t(c.region), t(c.city), t(c.timezone), copyNumber(c.latitude), copyNumber(c.longitude),
    t(c.utmSource), t(c.utmMedium), t(c.utmCampaign), t(c.utmTerm), t(c.utmContent), c.isBot ? 't' : 'f',
    t(c.visitorHash), t(c.fingerprint), copyNumber(c.variantIndex), `${copyNumber(c.ruleIndex)}\n`,
  ].join('\t');
}

/** A daily visitor as a json row of `insertDailyVisitors`. */
export const visitorRow = (r: VisitorRow): object => ({ o: r.organizationId, l: r.linkId, d: r.day, v: r.visitorHash });
