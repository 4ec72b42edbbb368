import { Transport } from './transport';
import { DeeplinkError, DeeplinkOptions, InstallAttribution, KeyValueStorage, TrackOptions } from './types';
import { uuid } from './uuid';

const INSTALL_ID_KEY = 'dl_install_id';
const MAX_NAME = 100;
const MAX_PROPERTIES_BYTES = 32 * 1024;

interface QueuedEvent {
  installId: string;
  eventName: string;
  properties?: Record<string, unknown>;
  timestamp: string;
  eventId: string;
}

function memoryStorage(): KeyValueStorage {
  const m = new Map<string, string>();
  return {
    getItem: async (k) => m.get(k) ?? null,
    setItem: async (k, v) => {
      m.set(k, v);
    },
  };
}

const byteLength = (s: string) => (typeof TextEncoder !== 'undefined' ? new TextEncoder().encode(s).length : s.length);

/**
 * The mobile SDK: `install()` once on first launch (answers the deferred deep link),
 * `open()` on each launch, `trackEvent` / `trackRevenue` any time. Events are queued,
 * sent in batches (every `flushIntervalMs` or when `batchSize` are waiting), retried
 * with exponential backoff, and carry their own id so a retried send is stored once.
 */
export class DeeplinkClient {
  private readonly transport: Transport;
  private readonly storage: KeyValueStorage;
  private readonly batchSize: number;
  private readonly maxQueue: number;
  private queue: QueuedEvent[] = [];
  private installIdPromise: Promise<string> | null = null;
  private flushing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: DeeplinkOptions) {
    if (!/^dla_[0-9a-f]{48}$/.test(options.appToken)) throw new DeeplinkError('appToken must be a dla_ token', null);
    const f = options.fetch ?? (globalThis.fetch as typeof fetch | undefined);
    if (!f) throw new DeeplinkError('No fetch available: pass options.fetch', null);
    this.transport = new Transport({
      baseUrl: options.baseUrl,
      appToken: options.appToken,
      fetch: f,
      maxAttempts: Math.max(1, options.maxAttempts ?? 5),
      retryBaseMs: options.retryBaseMs ?? 500,
    });
    this.storage = options.storage ?? memoryStorage();
    this.batchSize = Math.min(100, Math.max(1, options.batchSize ?? 20));
    this.maxQueue = Math.max(this.batchSize, options.maxQueue ?? 1000);
    const interval = options.flushIntervalMs ?? 2000;
    if (interval > 0) {
      this.timer = setInterval(() => void this.flush().catch(() => undefined), interval);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  /** This device's install id: given, stored, or made now and stored. */
  installId(): Promise<string> {
    if (!this.installIdPromise) {
      this.installIdPromise = (async () => {
        if (this.options.installId) return this.options.installId;
        const stored = await this.storage.getItem(INSTALL_ID_KEY);
        if (stored) return stored;
        const id = uuid();
        await this.storage.setItem(INSTALL_ID_KEY, id);
        return id;
      })();
    }
    return this.installIdPromise;
  }

  /**
   * Reports the install and answers its attribution (the deferred deep link). Safe to call
   * on every launch: the service answers the same for the same install id.
   * `clickId`: when the app was opened by a link carrying `dl_click`.
   */
  async install(opts: { clickId?: string } = {}): Promise<InstallAttribution> {
    const d = this.options.device;
    return this.transport.post<InstallAttribution>('/api/sdk/v1/install', {
      installId: await this.installId(),
      platform: d.platform,
      osVersion: d.osVersion,
      ...(d.deviceModel ? { deviceModel: d.deviceModel } : {}),
      ...(d.language ? { language: d.language } : {}),
      ...(d.appVersion ? { appVersion: d.appVersion } : {}),
      ...(opts.clickId ? { clickId: opts.clickId } : {}),
    });
  }

  /** Records an app open (a session), optionally with the URL that opened it. */
  async open(url?: string): Promise<void> {
    await this.transport.post('/api/sdk/v1/open', { installId: await this.installId(), ...(url ? { url } : {}) });
  }

  /** Queues an event; returns its id. Throws at once on what the service would refuse. */
  trackEvent(eventName: string, properties?: Record<string, unknown>, opts: TrackOptions = {}): string {
    if (typeof eventName !== 'string' || eventName.length < 1 || eventName.length > MAX_NAME) {
      throw new DeeplinkError('eventName must be 1-100 characters', null);
    }
    if (properties !== undefined) {
      if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
        throw new DeeplinkError('properties must be an object', null);
      }
      if (byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) throw new DeeplinkError('properties must be at most 32 KB of JSON', null);
    }
    const eventId = uuid();
    const timestamp = (opts.timestamp ?? new Date()).toISOString();
    void this.installId().then((installId) => {
      this.queue.push({ installId, eventName, ...(properties ? { properties } : {}), timestamp, eventId });
      if (this.queue.length > this.maxQueue) this.queue.splice(0, this.queue.length - this.maxQueue);
      if (this.queue.length >= this.batchSize) void this.flush().catch(() => undefined);
    });
    return eventId;
  }

  /** An event named `revenue` with `revenue` (number) and `currency` (ISO 4217) in its properties. */
  trackRevenue(amount: number, currency: string, properties: Record<string, unknown> = {}, opts: TrackOptions = {}): string {
    if (typeof amount !== 'number' || !Number.isFinite(amount)) throw new DeeplinkError('amount must be a finite number', null);
    if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) throw new DeeplinkError('currency must be an ISO 4217 code', null);
    return this.trackEvent('revenue', { ...properties, revenue: amount, currency: currency.toUpperCase() }, opts);
  }

  /** Sends every queued event now (batch by batch); resolves when the queue is empty or a send failed for good. */
  async flush(): Promise<void> {
    await this.installId();
    if (this.flushing) return this.flushing;
    this.flushing = (async () => {
      try {
        while (this.queue.length) {
          const batch = this.queue.slice(0, this.batchSize);
          try {
            await this.sendBatch(batch);
            this.queue.splice(0, batch.length);
          } catch (err) {
            const e = err as DeeplinkError;
            if (e.retryable) {
              // Still unreachable after every attempt: keep the events for the next flush.
              this.options.onError?.(e);
              return;
            }
            // Refused (4xx): drop them so they do not block the queue.
            this.queue.splice(0, batch.length);
            this.options.onError?.(e);
          }
        }
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Flushes and stops the timer. */
  async shutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Number of events waiting to be sent. */
  get pending(): number {
    return this.queue.length;
  }

  /** A batch is all-or-nothing on the service: when refused, the events are retried one by one to save the good ones. */
  private async sendBatch(batch: QueuedEvent[]): Promise<void> {
    try {
      await this.transport.post('/api/sdk/v1/events', { events: batch });
    } catch (err) {
      const e = err as DeeplinkError;
      if (e.retryable || batch.length === 1 || e.status !== 400) throw e;
      let firstError: DeeplinkError | null = null;
      for (const event of batch) {
        try {
          await this.transport.post('/api/sdk/v1/event', event);
        } catch (single) {
          if ((single as DeeplinkError).retryable) throw single;
          firstError ??= single as DeeplinkError;
        }
      }
      if (firstError) this.options.onError?.(firstError);
    }
  }
}
