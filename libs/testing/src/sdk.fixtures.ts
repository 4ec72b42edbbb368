import { randomUUID } from 'node:crypto';
import { PrismaService } from '@dl/platform/db';
import { generateAppToken, generateSiteKey, hashToken, tokenPrefix } from '@dl/sdk';

/** Rows straight into apps and pixel_sites, for tests and benchmarks. */
export class SdkFixtures {
  constructor(private readonly prisma: PrismaService) {}

  async app(organizationId: string, platform: 'ios' | 'android' = 'ios'): Promise<{ id: string; token: string }> {
    const token = generateAppToken();
    const id = randomUUID();
    await this.prisma.app.create({
      data: {
        id,
        organizationId,
        name: `App ${id.slice(0, 6)}`,
        platform,
        bundleId: platform === 'ios' ? 'com.example.app' : null,
        packageName: platform === 'android' ? 'com.example.app' : null,
        tokenHash: hashToken(token),
        tokenPrefix: tokenPrefix(token),
      },
    });
    return { id, token };
  }

  async site(organizationId: string, domain = 'shop.example.com'): Promise<{ id: string; siteKey: string }> {
    const siteKey = generateSiteKey();
    const site = await this.prisma.pixelSite.create({ data: { organizationId, name: 'Shop', domain, siteKey } });
    return { id: site.id, siteKey };
  }
}

/** Polls `check` until it returns a truthy value (the worker is asynchronous). */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
