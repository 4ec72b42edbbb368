/**
 * A small typed client of Google Safe Browsing v4 `threatMatches:find` (the Lookup API), written
 * from its REST reference: `POST {base}/v4/threatMatches:find?key=<API key>` with a JSON body
 * `{client: {clientId, clientVersion}, threatInfo: {threatTypes, platformTypes, threatEntryTypes,
 * threatEntries: [{url}]}}`, answered `{matches?: [{threatType, platformType, threatEntryType,
 * threat: {url}, cacheDuration, threatEntryMetadata?}]}` (no `matches` when nothing is listed).
 */
import { ThreatReason } from './verdict';

/** The threat types asked for, and the reason each one blocks a destination with (decisions §22). */
export const SAFE_BROWSING_REASONS = {
  MALWARE: 'malware',
  SOCIAL_ENGINEERING: 'phishing',
  UNWANTED_SOFTWARE: 'unwanted software',
} as const satisfies Record<string, ThreatReason>;

export type SafeBrowsingThreatType = keyof typeof SAFE_BROWSING_REASONS;

/** At most this many entries a request (the API's documented limit is 500). */
export const SAFE_BROWSING_MAX_ENTRIES = 500;

export interface ThreatEntry {
  url: string;
}

export interface ThreatMatchesFindRequest {
  client: { clientId: string; clientVersion: string };
  threatInfo: {
    threatTypes: string[];
    platformTypes: string[];
    threatEntryTypes: string[];
    threatEntries: ThreatEntry[];
  };
}

export interface ThreatMatch {
  threatType: string;
  platformType: string;
  threatEntryType: string;
  threat: ThreatEntry;
  /** Duration like `"300s"`. */
  cacheDuration?: string;
  threatEntryMetadata?: { entries?: Array<{ key: string; value: string }> };
}

export interface ThreatMatchesFindResponse {
  matches?: ThreatMatch[];
}

/** Safe Browsing could not answer (network, timeout, a non-2xx or an unreadable answer). */
export class SafeBrowsingUnavailableError extends Error {
  constructor(cause: string) {
    super(`Safe Browsing unavailable: ${cause}`);
    this.name = 'SafeBrowsingUnavailableError';
  }
}

export interface SafeBrowsingClientOptions {
  apiKey: string;
  /** `https://safebrowsing.googleapis.com`, or a test server. */
  baseUrl: string;
  timeoutMs: number;
  clientId?: string;
  clientVersion?: string;
}

/** The request body for a list of URLs. */
export function threatMatchesFindRequest(urls: readonly string[], client: { clientId: string; clientVersion: string }): ThreatMatchesFindRequest {
  return {
    client,
    threatInfo: {
      threatTypes: Object.keys(SAFE_BROWSING_REASONS),
      platformTypes: ['ANY_PLATFORM'],
      threatEntryTypes: ['URL'],
      threatEntries: urls.map((url) => ({ url })),
    },
  };
}

export class SafeBrowsingClient {
  private readonly endpoint: string;
  private readonly client: { clientId: string; clientVersion: string };

  constructor(private readonly opts: SafeBrowsingClientOptions) {
    this.endpoint = `${opts.baseUrl.replace(/\/+$/, '')}/v4/threatMatches:find?key=${encodeURIComponent(opts.apiKey)}`;
    this.client = { clientId: opts.clientId ?? 'deeplinks', clientVersion: opts.clientVersion ?? '1.0.0' };
  }

  /** The reason each listed URL is listed for (URLs as given); throws SafeBrowsingUnavailableError. */
  async find(urls: readonly string[]): Promise<Map<string, ThreatReason>> {
    const out = new Map<string, ThreatReason>();
    for (let i = 0; i < urls.length; i += SAFE_BROWSING_MAX_ENTRIES) {
      for (const m of await this.findBatch(urls.slice(i, i + SAFE_BROWSING_MAX_ENTRIES))) {
        const reason = SAFE_BROWSING_REASONS[m.threatType as SafeBrowsingThreatType];
        if (reason && typeof m.threat?.url === 'string' && !out.has(m.threat.url)) out.set(m.threat.url, reason);
      }
    }
    return out;
  }

  private async findBatch(urls: readonly string[]): Promise<ThreatMatch[]> {
    let res: Response;
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(threatMatchesFindRequest(urls, this.client)),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (err) {
      throw new SafeBrowsingUnavailableError(err instanceof Error ? err.message : String(err));
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new SafeBrowsingUnavailableError(`HTTP ${res.status}`);
    }
    let body: ThreatMatchesFindResponse;
    try {
      body = (await res.json()) as ThreatMatchesFindResponse;
    } catch (err) {
      throw new SafeBrowsingUnavailableError(`unreadable answer: ${err instanceof Error ? err.message : String(err)}`);
    }
    return Array.isArray(body?.matches) ? body.matches : [];
  }
}
