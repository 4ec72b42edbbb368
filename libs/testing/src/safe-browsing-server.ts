// A Google Safe Browsing v4 stand-in on loopback for the screening tests (decisions §22): the one
// endpoint the client calls, `POST /v4/threatMatches:find?key=…`, checking the API key and the
// documented request body (client, threatInfo with threatTypes, platformTypes, threatEntryTypes
// and threatEntries of `{url}`), answering `{matches: [...]}` for listed URLs and `{}` otherwise,
// and errors in Google's shape `{error: {code, message, status}}`.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ThreatMatch, ThreatMatchesFindRequest } from '@dl/safety';

const THREAT_TYPES = ['THREAT_TYPE_UNSPECIFIED', 'MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'];
const PLATFORM_TYPES = ['PLATFORM_TYPE_UNSPECIFIED', 'WINDOWS', 'LINUX', 'ANDROID', 'OSX', 'IOS', 'ANY_PLATFORM', 'ALL_PLATFORMS', 'CHROME'];
const ENTRY_TYPES = ['THREAT_ENTRY_TYPE_UNSPECIFIED', 'URL', 'EXECUTABLE'];

export interface SafeBrowsingTestServer {
  /** For SAFE_BROWSING_API_BASE. */
  url: string;
  apiKey: string;
  /** Listed URLs (exactly as a request spells them) and their threat type. */
  listed: Map<string, 'MALWARE' | 'SOCIAL_ENGINEERING' | 'UNWANTED_SOFTWARE'>;
  /** Every well-formed request body received. */
  requests: ThreatMatchesFindRequest[];
  /** `down`: every connection is reset before an answer (unreachable); `hang`: requests are never answered; `up`: normal. */
  mode: 'up' | 'down' | 'hang';
  close(): Promise<void>;
}

const isStringArray = (v: unknown, allowed: string[]): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string' && allowed.includes(x));

/** What is wrong with a request body, or null when it has the documented shape. */
export function safeBrowsingBodyProblem(body: unknown): string | null {
  const b = body as Partial<ThreatMatchesFindRequest> | null;
  if (!b || typeof b !== 'object') return 'body must be a JSON object';
  if (typeof b.client?.clientId !== 'string' || !b.client.clientId || typeof b.client.clientVersion !== 'string') return 'client.clientId and client.clientVersion are required';
  const t = b.threatInfo;
  if (!t || typeof t !== 'object') return 'threatInfo is required';
  if (!isStringArray(t.threatTypes, THREAT_TYPES)) return 'Invalid value at threatInfo.threat_types';
  if (!isStringArray(t.platformTypes, PLATFORM_TYPES)) return 'Invalid value at threatInfo.platform_types';
  if (!isStringArray(t.threatEntryTypes, ENTRY_TYPES)) return 'Invalid value at threatInfo.threat_entry_types';
  if (!Array.isArray(t.threatEntries) || !t.threatEntries.length || t.threatEntries.length > 500) return 'threatInfo.threatEntries must hold 1 to 500 entries';
  if (!t.threatEntries.every((e) => e && typeof e.url === 'string' && e.url)) return 'each threat entry needs a url';
  return null;
}

export async function startSafeBrowsingServer(apiKey = 'test-safe-browsing-key'): Promise<SafeBrowsingTestServer> {
  const sockets = new Set<Socket>();
  const state: SafeBrowsingTestServer = { url: '', apiKey, listed: new Map(), requests: [], mode: 'up', close: async () => undefined };
  const error = (res: http.ServerResponse, code: number, status: string, message: string) => {
    res.writeHead(code, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify({ error: { code, message, status } }));
  };
  const server = http.createServer((req, res) => {
    if (state.mode === 'down') return req.socket.destroy();
    if (state.mode === 'hang') return;
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/v4/threatMatches:find') return error(res, 404, 'NOT_FOUND', 'Not found');
    if (req.method !== 'POST') return error(res, 405, 'INVALID_ARGUMENT', 'Method not allowed');
    if (url.searchParams.get('key') !== apiKey) return error(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return error(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
      }
      const problem = safeBrowsingBodyProblem(body);
      if (problem) return error(res, 400, 'INVALID_ARGUMENT', problem);
      const request = body as ThreatMatchesFindRequest;
      state.requests.push(request);
      const matches: ThreatMatch[] = [];
      for (const entry of request.threatInfo.threatEntries) {
        const type = state.listed.get(entry.url);
        if (type && request.threatInfo.threatTypes.includes(type)) {
          matches.push({ threatType: type, platformType: 'ANY_PLATFORM', threatEntryType: 'URL', threat: { url: entry.url }, cacheDuration: '300s' });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(matches.length ? { matches } : {}));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return state;
}
