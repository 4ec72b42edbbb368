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
  const fingerprints = (config.ANDROID_SHA256_FINGERPRINTS ?? '')
    .split(',')
    .map((f) => f.trim().toUpperCase())
    .filter(Boolean);
  return buildAssociationFiles(
    config.IOS_TEAM_ID && config.IOS_BUNDLE_ID ? [{ teamId: config.IOS_TEAM_ID, bundleId: config.IOS_BUNDLE_ID }] : [],
    config.ANDROID_PACKAGE_NAME && fingerprints.length ? [{ packageName: config.ANDROID_PACKAGE_NAME, fingerprints }] : [],
  );
}

/**
 * The two files for a set of apps (the service host's from configuration, a branded domain's
 * from its organization's registered apps: `teamId` + `bundleId`, `packageName` +
 * `sha256Fingerprints`); null when there is no such app.
 */
export function buildAssociationFiles(
  ios: Array<{ teamId: string; bundleId: string }>,
  androidApps: Array<{ packageName: string; fingerprints: string[] }>,
): AssociationFiles {
  let apple: string | null = null;
  const appIDs = [...new Set(ios.map((a) => `${a.teamId}.${a.bundleId}`))];
  if (appIDs.length) {
    apple = JSON.stringify({
      applinks: {
        apps: [],
        details: appIDs.map((appID) => ({ appID, appIDs: [appID], paths: ['*'], components: [{ '/': '*' }] })),
      },
      webcredentials: { apps: appIDs },
    });
  }
  let android: string | null = null;
  const targets = androidApps.filter((a) => a.packageName && a.fingerprints.length);
  if (targets.length) {
    android = JSON.stringify(
      targets.map((a) => ({
        relation: ['delegate_permission/common.handle_all_urls'],
        target: { namespace: 'android_app', package_name: a.packageName, sha256_cert_fingerprints: a.fingerprints.map((f) => f.toUpperCase()) },
      })),
    );
  }
  return { apple, android };
}
