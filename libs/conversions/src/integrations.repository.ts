import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';

export type IntegrationProvider = 'stripe' | 'shopify';

export interface IntegrationRecord {
  organizationId: string;
  provider: IntegrationProvider;
  /** Names the endpoint (`/integrations/<provider>/<token>`): 32 random bytes, hex. */
  token: string;
  webhookSecret: string;
  shopDomain: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const fromRow = (r: Record<string, unknown>): IntegrationRecord => ({
  organizationId: r.organization_id as string,
  provider: r.provider as IntegrationProvider,
  token: r.token as string,
  webhookSecret: r.webhook_secret as string,
  shopDomain: (r.shop_domain as string | null) ?? null,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});

/** An organization's Stripe and Shopify integrations and the events they applied. */
@Injectable()
export class IntegrationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async list(organizationId: string): Promise<IntegrationRecord[]> {
    const { rows } = await this.prisma.pool.query('SELECT * FROM integrations WHERE organization_id = $1::uuid ORDER BY provider', [organizationId]);
    return rows.map(fromRow);
  }

  /** Sets the secret (and shop); the endpoint's token is made once and kept, so its URL never changes. */
  async put(organizationId: string, provider: IntegrationProvider, webhookSecret: string, shopDomain: string | null): Promise<IntegrationRecord> {
    const { rows } = await this.prisma.pool.query(
      `INSERT INTO integrations (organization_id, provider, token, webhook_secret, shop_domain)
       VALUES ($1::uuid, $2::"IntegrationProvider", $3, $4, $5)
       ON CONFLICT (organization_id, provider) DO UPDATE
         SET webhook_secret = EXCLUDED.webhook_secret, shop_domain = EXCLUDED.shop_domain, updated_at = now()
       RETURNING *`,
      [organizationId, provider, randomBytes(32).toString('hex'), webhookSecret, shopDomain],
    );
    return fromRow(rows[0]);
  }

  async delete(organizationId: string, provider: IntegrationProvider): Promise<boolean> {
    const { rowCount } = await this.prisma.pool.query('DELETE FROM integrations WHERE organization_id = $1::uuid AND provider = $2::"IntegrationProvider"', [
      organizationId,
      provider,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** The integration an endpoint names (its token is the only credential before the signature). */
  async findByToken(provider: IntegrationProvider, token: string): Promise<IntegrationRecord | null> {
    if (!/^[0-9a-f]{64}$/.test(token)) return null;
    const { rows } = await this.prisma.pool.query('SELECT * FROM integrations WHERE token = $1 AND provider = $2::"IntegrationProvider"', [token, provider]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async applied(organizationId: string, provider: IntegrationProvider, eventId: string): Promise<boolean> {
    const { rowCount } = await this.prisma.pool.query(
      'SELECT 1 FROM integration_events WHERE organization_id = $1::uuid AND provider = $2::"IntegrationProvider" AND event_id = $3',
      [organizationId, provider, eventId],
    );
    return (rowCount ?? 0) > 0;
  }

  async markApplied(organizationId: string, provider: IntegrationProvider, eventId: string): Promise<void> {
    await this.prisma.pool.query(
      `INSERT INTO integration_events (organization_id, provider, event_id) VALUES ($1::uuid, $2::"IntegrationProvider", $3)
       ON CONFLICT DO NOTHING`,
      [organizationId, provider, eventId],
    );
  }
}
