import { DeeplinkError } from './types';

export interface TransportOptions {
  baseUrl: string;
  appToken: string;
  fetch: typeof fetch;
  maxAttempts: number;
  retryBaseMs: number;
}

const MAX_DELAY_MS = 30_000;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Delay before retry `attempt` (1-based): exponential with full jitter, or the server's `retryAfter`. */
export function backoffDelay(attempt: number, baseMs: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && retryAfterSeconds > 0) return Math.min(retryAfterSeconds * 1000, MAX_DELAY_MS * 4);
  const cap = Math.min(MAX_DELAY_MS, baseMs * 2 ** (attempt - 1));
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}

/** JSON POSTs to the ingest service with the app token; retries network errors, 429 and 5xx. */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  async post<T>(path: string, body: unknown): Promise<T> {
    let lastError: DeeplinkError | null = null;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      try {
        return await this.once<T>(path, body);
      } catch (err) {
        const e = err instanceof DeeplinkError ? err : new DeeplinkError(String((err as Error)?.message ?? err), null);
        if (!e.retryable || attempt === this.options.maxAttempts) throw e;
        lastError = e;
        await sleep(backoffDelay(attempt, this.options.retryBaseMs, e.body?.retryAfter));
      }
    }
    throw lastError ?? new DeeplinkError('Request failed', null);
  }

  private async once<T>(path: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await this.options.fetch(`${this.options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.options.appToken}` },
        body: JSON.stringify(body),
      });
    } catch (err) {
      throw new DeeplinkError(`Network error: ${(err as Error)?.message ?? String(err)}`, null);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!res.ok) {
      const b = (parsed ?? null) as DeeplinkError['body'];
      throw new DeeplinkError(b?.message ?? `HTTP ${res.status}`, res.status, b);
    }
    return parsed as T;
  }
}
