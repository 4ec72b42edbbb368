import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { AccountsRepository } from './accounts.repository';
import { InvalidSessionError, SessionNotFoundError } from './auth.errors';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from './credential-invalidation';
import { SessionClock } from './session-clock';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SessionRow, SessionsRepository } from './sessions.repository';
import { sessionSecret, SessionTokens } from './session-tokens';

/** Where a sign-in came from, shown in the session list. */
export interface SessionMeta {
  userAgent?: string | null;
  ip?: string | null;
}

/** A signed-in dashboard: the access token (JWT) and the refresh credential for the cookie. */
export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
  sessionId: string;
  refreshToken: string;
  /** Seconds the refresh cookie may live: the idle period, cut at the absolute end. */
  refreshMaxAge: number;
}

export interface SessionListItem {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

const USER_AGENT_MAX = 300;
/**
 * How long after a rotation the generation it replaced is still answered: a navigation that
 * aborted the refresh, or two tabs refreshing at once, present it again without theft.
 */
export const REFRESH_REUSE_INTERVAL_MS = 10_000;

/**
 * Dashboard sessions (decisions §20). Each sign-in is a `sessions` row; its access tokens carry
 * the row's id (`sid`), so revoking the row stops them (through the credential cache, see
 * Authenticator). The refresh credential is `<sid>.<generation>.<HMAC>` under a key derived from
 * JWT_SECRET for this purpose only: every refresh moves the row to the next generation and
 * answers that generation's credential. The generation just replaced, presented again within
 * REFRESH_REUSE_INTERVAL_MS of the rotation, gets the current generation's credential again (no
 * new rotation: one live chain); later, or any older generation, is a stolen copy in use and
 * revokes the session.
 */
@Injectable()
export class SessionsService {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tokens: SessionTokens,
    private readonly sessions: SessionsRepository,
    private readonly accounts: AccountsRepository,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly audit: AuditSink,
    @Optional() private readonly clock: SessionClock = new SessionClock(),
  ) {
    this.key = createHmac('sha256', sessionSecret(config)).update('dl-dashboard-refresh-v2').digest();
  }

  /** A new session of the user in the organization. */
  async start(userId: string, organizationId: string, role: Role, meta: SessionMeta = {}): Promise<IssuedSession> {
    const row = await this.sessions.create({
      userId,
      organizationId,
      userAgent: meta.userAgent ? meta.userAgent.slice(0, USER_AGENT_MAX) : null,
      ip: meta.ip ?? null,
    });
    return this.issue(row, role, this.clock.now());
  }

  /** A new access token and the next refresh credential, or InvalidSessionError. */
  async refresh(credential: string | undefined, now: Date = this.clock.now()): Promise<IssuedSession> {
    const parsed = credential ? this.parse(credential) : null;
    if (!parsed) throw new InvalidSessionError();
    const current = (await this.sessions.rotate(parsed.sid, parsed.generation, now)) ?? (await this.reused(parsed, now));
    const membership = (await this.accounts.membershipsOfUser(current.userId)).find((m) => m.organizationId === current.organizationId);
    if (!membership) {
      await this.end(current, now);
      throw new InvalidSessionError();
    }
    return this.issue(current, membership.role, now);
  }

  /**
   * A credential that did not rotate: the live session when it is the generation just replaced,
   * within the reuse interval; otherwise someone else holds a copy, and the session ends for both.
   */
  private async reused(parsed: { sid: string; generation: number }, now: Date): Promise<SessionRow> {
    const row = await this.sessions.findLive(parsed.sid, now);
    if (!row || row.generation <= parsed.generation) throw new InvalidSessionError();
    // lastUsedAt is the time of the last rotation (rotate alone moves it).
    const sinceRotation = now.getTime() - row.lastUsedAt.getTime();
    if (row.generation === parsed.generation + 1 && sinceRotation <= REFRESH_REUSE_INTERVAL_MS) return row;
    await this.end(row, now);
    throw new InvalidSessionError();
  }

  /** The session a refresh credential names (a valid MAC), for sign-out. */
  sessionIdOf(credential: string | undefined): string | null {
    return (credential && this.parse(credential)?.sid) || null;
  }

  /** Signs out: revokes the session of this refresh credential, if it is one. */
  async signOut(credential: string | undefined, now: Date = new Date()): Promise<void> {
    const sid = this.sessionIdOf(credential);
    const row = sid ? await this.sessions.find(sid) : null;
    if (row && !row.revokedAt) await this.end(row, now);
  }

  async list(userId: string, currentSessionId: string | undefined, now: Date = new Date()): Promise<SessionListItem[]> {
    const rows = await this.sessions.listLive(userId, now);
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
      userAgent: r.userAgent,
      ip: r.ip,
      current: r.id === currentSessionId,
    }));
  }

  /** Ends one of the user's sessions (404 for another's, an unknown or an ended one). */
  async revoke(userId: string, sessionId: string, now: Date = new Date()): Promise<void> {
    const row = isUuid(sessionId) ? await this.sessions.revoke(userId, sessionId, now) : null;
    if (!row) throw new SessionNotFoundError();
    this.audit.record({ organizationId: row.organizationId, action: 'session.revoked', targetId: row.id, changes: { userId } });
    await this.invalidation.revokedSessions([row]);
  }

  /** Ends every session of the user but `exceptSessionId` (password reset and change). */
  async revokeAllOfUser(userId: string, exceptSessionId?: string, now: Date = new Date()): Promise<void> {
    const rows = await this.sessions.revokeAllOfUser(userId, now, exceptSessionId);
    await this.invalidation.revokedSessions(rows);
  }

  private async end(row: SessionRow, now: Date): Promise<void> {
    await this.sessions.revoke(row.userId, row.id, now);
    await this.invalidation.revokedSessions([row]);
  }

  private issue(row: SessionRow, role: Role, now: Date): IssuedSession {
    const accessToken = this.tokens.sign({ sub: row.userId, org: row.organizationId, role, sid: row.id }, Math.floor(now.getTime() / 1000));
    const absoluteEnd = row.createdAt.getTime() + SESSION_ABSOLUTE_MS;
    const maxAgeMs = Math.min(SESSION_IDLE_MS, absoluteEnd - now.getTime());
    return {
      accessToken,
      expiresIn: this.tokens.ttlSeconds,
      sessionId: row.id,
      refreshToken: this.credential(row.id, row.generation),
      refreshMaxAge: Math.max(0, Math.floor(maxAgeMs / 1000)),
    };
  }

  private credential(sid: string, generation: number): string {
    const body = `${sid}.${generation}`;
    return `${body}.${this.mac(body)}`;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  private parse(credential: string): { sid: string; generation: number } | null {
    if (credential.length > 200) return null;
    const parts = credential.split('.');
    if (parts.length !== 3) return null;
    const [sid, gen, mac] = parts;
    if (!isUuid(sid) || !/^\d{1,9}$/.test(gen)) return null;
    const expected = Buffer.from(this.mac(`${sid}.${gen}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { sid, generation: Number(gen) };
  }
}
