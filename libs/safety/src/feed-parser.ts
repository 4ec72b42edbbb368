/**
 * Reads one line of a threat feed in any of the formats of decisions §22, told apart line by
 * line so one file may mix them: URLhaus CSV (`"id","dateadded","url",...`) → malware; a URL
 * (`http://...`) → blocklisted URL; a hosts-file line (`0.0.0.0 evil.test`) or a bare domain →
 * blocklisted domain. Comments (`#`, `!`, `;`) and blank lines are skipped; anything else is
 * malformed: counted, never thrown.
 */
import { canonicalDomain, canonicalizeUrl } from './canonical-url';
import { EntryKind } from './threat-matcher';
import { ThreatReason } from './verdict';

export interface FeedEntry {
  kind: EntryKind;
  key: string;
  reason: ThreatReason;
}

export type ParsedLine = FeedEntry | 'skip' | 'malformed';

const HOSTS_SINK = /^(?:0\.0\.0\.0|127\.0\.0\.1|::1?|::)\s+(.+)$/;
/** Names a hosts file maps for the machine itself, not threats. */
const LOCAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'local', 'broadcasthost', '0.0.0.0', 'ip6-localhost', 'ip6-loopback']);

/** The third field of a quoted CSV row (URLhaus: id, dateadded, url, ...), or null. */
function csvThirdField(line: string): string | null {
  const fields: string[] = [];
  let i = 0;
  while (i < line.length && fields.length < 3) {
    if (line[i] !== '"') return null;
    let value = '';
    i++;
    for (;;) {
      if (i >= line.length) return null;
      if (line[i] === '"') {
        if (line[i + 1] === '"') {
          value += '"';
          i += 2;
          continue;
        }
        i++;
        break;
      }
      value += line[i++];
    }
    fields.push(value);
    if (line[i] === ',') i++;
    else break;
  }
  return fields.length === 3 ? fields[2] : null;
}

export function parseFeedLine(raw: string): ParsedLine {
  const line = raw.trim();
  if (!line || line.startsWith('#') || line.startsWith('!') || line.startsWith(';')) return 'skip';
  if (line.startsWith('"')) {
    const url = csvThirdField(line);
    if (url === null) return 'malformed';
    // The header row of a URLhaus export that was not commented out.
    if (url === 'url') return 'skip';
    const c = canonicalizeUrl(url);
    return c ? { kind: 'url', key: c.key, reason: 'malware' } : 'malformed';
  }
  const hosts = HOSTS_SINK.exec(line);
  if (hosts) {
    const name = hosts[1].split('#')[0].trim().split(/\s+/)[0];
    if (LOCAL_NAMES.has(name.toLowerCase())) return 'skip';
    const d = canonicalDomain(name);
    return d ? { kind: 'domain', key: d, reason: 'blocklisted domain' } : 'malformed';
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(line)) {
    const c = canonicalizeUrl(line.split(/\s+/)[0]);
    return c ? { kind: 'url', key: c.key, reason: 'blocklisted URL' } : 'malformed';
  }
  const d = canonicalDomain(line.split(/\s+/)[0]);
  return d ? { kind: 'domain', key: d, reason: 'blocklisted domain' } : 'malformed';
}
