/** Async key-value storage (React Native's AsyncStorage fits; a Map-backed one is used by default). */
export interface KeyValueStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
}

export interface DeviceInfo {
  platform: 'ios' | 'android';
  /** e.g. "17.5" */
  osVersion: string;
  deviceModel?: string;
  /** BCP 47, e.g. "en-US" */
  language?: string;
  appVersion?: string;
}

export interface DeeplinkOptions {
  /** The app's `dla_` token (from POST /api/apps). */
  appToken: string;
  /** Base URL of the ingest service, e.g. https://ingest.example.com */
  baseUrl: string;
  device: DeviceInfo;
  /** Where the install id is kept across launches (default: memory only). */
  storage?: KeyValueStorage;
  /** Use this install id instead of a generated, stored one. */
  installId?: string;
  /** Events per request (1-100, default 20). */
  batchSize?: number;
  /** Queued events are sent at least this often (default 2000 ms; 0 = only on flush() or a full batch). */
  flushIntervalMs?: number;
  /** Attempts per request on network errors, 429 and 5xx (default 5). */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt, with jitter, capped at 30 s (default 500 ms). */
  retryBaseMs?: number;
  /** Oldest events are dropped beyond this many queued (default 1000). */
  maxQueue?: number;
  /** The fetch to use (default: the global one: React Native, browsers, Node 20+). */
  fetch?: typeof fetch;
  /** Called with errors of background sends (events are otherwise fire-and-forget). */
  onError?: (error: DeeplinkError) => void;
}

export interface InstallAttribution {
  attributed: boolean;
  linkId: string | null;
  shortCode: string | null;
  deepLinkPath: string | null;
  deepLinkParameters: Record<string, unknown> | null;
  matchType: 'clickId' | 'fingerprint' | null;
}

export interface TrackOptions {
  /** When it happened (default: now). At most 30 days old. */
  timestamp?: Date;
}

/** A failed call: the HTTP status and the service's error body when there was one. */
export class DeeplinkError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: { error?: string; message?: string; validation?: Record<string, string>; retryAfter?: number } | null = null,
  ) {
    super(message);
    this.name = 'DeeplinkError';
  }

  /** Worth retrying: network failure, 429 or 5xx. */
  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}
