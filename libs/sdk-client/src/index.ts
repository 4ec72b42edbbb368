import { DeeplinkClient } from './client';
import { DeeplinkError, DeeplinkOptions, InstallAttribution, TrackOptions } from './types';

export * from './types';
export { DeeplinkClient } from './client';
export { backoffDelay } from './transport';

let current: DeeplinkClient | null = null;

function client(): DeeplinkClient {
  if (!current) throw new DeeplinkError('Call init() first', null);
  return current;
}

/** Configures the SDK (call once at app start); returns the client. */
export function init(options: DeeplinkOptions): DeeplinkClient {
  if (current) void current.shutdown().catch(() => undefined);
  current = new DeeplinkClient(options);
  return current;
}

export const install = (opts?: { clickId?: string }): Promise<InstallAttribution> => client().install(opts);
export const open = (url?: string): Promise<void> => client().open(url);
export const trackEvent = (name: string, properties?: Record<string, unknown>, opts?: TrackOptions): string =>
  client().trackEvent(name, properties, opts);
export const trackRevenue = (amount: number, currency: string, properties?: Record<string, unknown>, opts?: TrackOptions): string =>
  client().trackRevenue(amount, currency, properties, opts);
export const flush = (): Promise<void> => client().flush();
export const shutdown = async (): Promise<void> => {
  if (current) await current.shutdown();
  current = null;
};
