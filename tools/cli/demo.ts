import { AppConfig } from '@dl/platform/config';

export interface DemoInfo {
  note: string;
}

/**
 * Makes sure a demo organization, owner and API key exist and returns them for
 * `npm start` to print. The identity work (issue: identity, tenancy, plans) fills
 * this in with the real organization, owner and a `dl_` key.
 */
export async function ensureDemo(_config: AppConfig): Promise<DemoInfo> {
  return { note: 'identity module not installed yet: no demo organization created' };
}
