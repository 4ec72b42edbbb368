/** A tiny MIME reader for tests: enough for nodemailer's multipart/alternative + related messages. */
export interface MimePart {
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  parts: MimePart[];
}

function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

function decode(body: string, encoding: string | undefined): Buffer {
  const enc = (encoding ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (enc === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(soft[i], 'utf8'));
      }
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(body, 'utf8');
}

export function parseMime(raw: string): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(raw.slice(0, split));
  const rest = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const contentType = (headers['content-type'] ?? 'text/plain').split(';')[0].trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (contentType.startsWith('multipart/') && boundary) {
    const chunks = rest.split(`--${boundary}`).slice(1);
    const parts = chunks
      .filter((c) => !c.startsWith('--'))
      .map((c) => parseMime(c.replace(/^\r?\n/, '')));
    return { headers, contentType, body: Buffer.alloc(0), parts };
  }
  return { headers, contentType, body: decode(rest, headers['content-transfer-encoding']), parts: [] };
}

export function flatten(part: MimePart): MimePart[] {
  return [part, ...part.parts.flatMap(flatten)];
}

/** Decodes an RFC 2047 encoded-word subject (UTF-8, Q or B). */
export function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decode(text.replace(/_/g, ' '), 'quoted-printable').toString('utf8'),
  );
}
