import { Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { isUUID } from 'class-validator';
import { normalizeUrl } from '@dl/platform/http';
import { linkInvalidationChannel, RedisService } from '@dl/platform/redis';
import { AppNotFoundError } from './sdk.errors';
import { CreateAppDto, toAppResponse, toCreatedAppResponse } from './apps.dto';
import { AppResponseDto, CreatedAppResponseDto } from './app-response.dto';
import { AppsRepository } from './apps.repository';
import { CredentialCache } from './credential-cache';
import { generateAppToken, hashToken, tokenPrefix } from './tokens';

/** Management of SDK apps and their tokens (Admin). */
@Injectable()
export class AppsService {
  private readonly logger = new Logger(AppsService.name);

  constructor(
    private readonly apps: AppsRepository,
    private readonly cache: CredentialCache,
    private readonly redis: RedisService,
    private readonly audit: AuditSink,
  ) {}

  /**
   * Tells every redirect instance to reload its domain table, which carries each branded host's
   * `.well-known` association files built from its organization's apps (the `@domains` message,
   * as a domain change sends): the files change within a second, not at the 15-second reload.
   */
  private async announce(): Promise<void> {
    try {
      await this.redis.client.publish(linkInvalidationChannel(this.redis), '@domains');
    } catch (err) {
      this.logger.error({ err: String(err) }, 'app change not announced');
    }
  }

  async create(organizationId: string, dto: CreateAppDto): Promise<CreatedAppResponseDto> {
    const appToken = generateAppToken();
    const app = await this.apps.create(organizationId, {
      name: dto.name,
      platform: dto.platform,
      bundleId: dto.bundleId ?? null,
      packageName: dto.packageName ?? null,
      appStoreUrl: dto.appStoreUrl ? normalizeUrl(dto.appStoreUrl) : null,
      teamId: dto.teamId ?? null,
      sha256Fingerprints: (dto.sha256Fingerprints ?? []).map((f) => f.toUpperCase()),
      tokenHash: hashToken(appToken),
      tokenPrefix: tokenPrefix(appToken),
    });
    this.logger.log({ organizationId, appId: app.id }, 'app created');
    this.audit.record({ organizationId, action: 'app.created', targetId: app.id, changes: { ...dto } });
    await this.announce();
    return toCreatedAppResponse(app, appToken);
  }

  async list(organizationId: string): Promise<AppResponseDto[]> {
    return (await this.apps.list(organizationId)).map(toAppResponse);
  }

  /** Revokes the token at once (shared cache entry deleted; ingest instances drop theirs within 2 s). */
  async remove(organizationId: string, id: string): Promise<{ success: true }> {
    if (!isUUID(id)) throw new AppNotFoundError();
    const tokenHash = await this.apps.revoke(organizationId, id);
    if (!tokenHash) throw new AppNotFoundError();
    await this.cache.invalidate('app', tokenHash);
    this.logger.log({ organizationId, appId: id }, 'app revoked');
    this.audit.record({ organizationId, action: 'app.deleted', targetId: id });
    await this.announce();
    return { success: true };
  }
}
