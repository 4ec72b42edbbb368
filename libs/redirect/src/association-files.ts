import { AppConfig } from '@dl/platform/config';

export interface AssociationFiles {
  /** `/.well-known/apple-app-site-association` (JSON text), or null when not configured. */
  apple: string | null;
  /** `/.well-known/assetlinks.json` (JSON text), or null when not configured. */
  android: string | null;
}

/**
 * The iOS Universal Links and Android App Links files of the short-link host, built once
 * from IOS_TEAM_ID + IOS_BUNDLE_ID and ANDROID_PACKAGE_NAME + ANDROID_SHA256_FINGERPRINTS.
 */
export function associationFiles(config: AppConfig): AssociationFiles {
  let apple: string | null = null;
  if (config.IOS_TEAM_ID && config.IOS_BUNDLE_ID) {
    const appID = `${config.IOS_TEAM_ID}.${config.IOS_BUNDLE_ID}`;
    apple = JSON.stringify({
      applinks: {
        apps: [],
        details: [{ appID, appIDs: [appID], paths: ['*'], components: [{ '/': '*' }] }],
      },
      webcredentials: { apps: [appID] },
    });
  }
  let android: string | null = null;
  const fingerprints = (config.ANDROID_SHA256_FINGERPRINTS ?? '')
    .split(',')
    .map((f) => f.trim().toUpperCase())
    .filter(Boolean);
  if (config.ANDROID_PACKAGE_NAME && fingerprints.length) {
    android = JSON.stringify([
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: config.ANDROID_PACKAGE_NAME,
          sha256_cert_fingerprints: fingerprints,
        },
      },
    ]);
  }
  return { apple, android };
}
