import { Injectable } from '@nestjs/common';
import { App, PrismaService } from '@dl/platform/db';

export interface NewApp {
  name: string;
  platform: 'ios' | 'android';
  bundleId: string | null;
  packageName: string | null;
  appStoreUrl: string | null;
  teamId: string | null;
  sha256Fingerprints: string[];
  tokenHash: string;
  tokenPrefix: string;
}

/** The credential of an SDK call: which app, in which organization. */
export interface AppCredential {
  appId: string;
  organizationId: string;
}

@Injectable()
export class AppsRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(organizationId: string, data: NewApp): Promise<App> {
    return this.prisma.app.create({ data: { ...data, organizationId } });
  }

  /** Active (not revoked) apps, newest first. */
  list(organizationId: string): Promise<App[]> {
    return this.prisma.app.findMany({
      where: { organizationId, revokedAt: null },
      orderBy: { createdAt: 'desc' },
    });
  }

  /** Revokes the app's token; history (installs, events) stays. Returns the token hash, or null when not found. */
  async revoke(organizationId: string, id: string): Promise<string | null> {
    const app = await this.prisma.app.findFirst({ where: { id, organizationId, revokedAt: null }, select: { tokenHash: true } });
    if (!app) return null;
    const { count } = await this.prisma.app.updateMany({
      where: { id, organizationId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count ? app.tokenHash : null;
  }

  /**
   * Authentication lookup of an SDK call (the one query not scoped by organization:
   * the organization is what it finds). Revoked tokens are not found.
   */
  async findCredentialByTokenHash(tokenHash: string): Promise<AppCredential | null> {
    const app = await this.prisma.app.findFirst({
      where: { tokenHash, revokedAt: null },
      select: { id: true, organizationId: true },
    });
    return app ? { appId: app.id, organizationId: app.organizationId } : null;
  }
}
