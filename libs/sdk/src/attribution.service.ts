import { Injectable, Logger } from '@nestjs/common';
import { deviceFingerprint } from '@dl/clicks';
import { JobQueue } from '@dl/platform/queue';
import { AppCredential } from './apps.repository';
import { AttributionRepository, CandidateClick, StoredInstall } from './attribution.repository';
import { SdkInstallDto, SdkInstallResponse } from './ingest.dto';
import { InstallAnswerStore, InstallDecision } from './install-answer.store';
import { IngestUnavailableError } from './sdk.errors';

/**
 * Clicks of two different links this close to the most recent matching click cannot be
 * told apart by a fingerprint: the most recent still wins, and the install is flagged.
 */
export const AMBIGUITY_TIE_WINDOW_MS = 60_000;

const UNATTRIBUTED: SdkInstallResponse = {
  attributed: false,
  linkId: null,
  shortCode: null,
  deepLinkPath: null,
  deepLinkParameters: null,
  matchType: null,
};

function answerFor(click: CandidateClick, matchType: 'clickId' | 'fingerprint'): SdkInstallResponse {
  return {
    attributed: true,
    linkId: click.linkId,
    shortCode: click.shortCode,
    deepLinkPath: click.deepLinkPath,
    deepLinkParameters: click.deepLinkParameters ?? {},
    matchType,
  };
}

/** Picks the winner among fingerprint candidates (newest first) and flags a tie between links. */
export function pickFingerprintMatch(candidates: CandidateClick[]): { click: CandidateClick; ambiguous: boolean } | null {
  const [winner] = candidates;
  if (!winner) return null;
  const ambiguous = candidates.some(
    (c) => c.linkId !== winner.linkId && winner.clickedAt.getTime() - c.clickedAt.getTime() <= AMBIGUITY_TIE_WINDOW_MS,
  );
  return { click: winner, ambiguous };
}

function fromStored(stored: StoredInstall): InstallDecision {
  const answer: SdkInstallResponse =
    stored.linkId && stored.shortCode
      ? {
          attributed: true,
          linkId: stored.linkId,
          shortCode: stored.shortCode,
          deepLinkPath: stored.deepLinkPath,
          deepLinkParameters: stored.deepLinkParameters ?? {},
          matchType: stored.matchType === 'clickId' ? 'clickId' : 'fingerprint',
        }
      : UNATTRIBUTED;
  return { answer, clickId: stored.clickId, ambiguous: stored.ambiguous };
}

/** clickId (exact) first, then the most recent fingerprint match. */
function decide(byClick: CandidateClick | null, candidates: CandidateClick[]): InstallDecision {
  if (byClick) return { answer: answerFor(byClick, 'clickId'), clickId: byClick.clickId, ambiguous: false };
  const match = pickFingerprintMatch(candidates);
  if (match) return { answer: answerFor(match.click, 'fingerprint'), clickId: match.click.clickId, ambiguous: match.ambiguous };
  return { answer: UNATTRIBUTED, clickId: null, ambiguous: false };
}

/**
 * Deferred deep linking, answered synchronously: clickId (exact) first, then the most recent
 * click with the device fingerprint inside its link's attribution window. Reads only (Redis
 * and indexed Postgres); the install row and its webhook are written by the worker.
 */
@Injectable()
export class AttributionService {
  private readonly logger = new Logger(AttributionService.name);

  constructor(
    private readonly repository: AttributionRepository,
    private readonly store: InstallAnswerStore,
    private readonly queue: JobQueue,
  ) {}

  async attribute(app: AppCredential, dto: SdkInstallDto, ip: string | null, now = new Date()): Promise<SdkInstallResponse> {
    const fingerprint = deviceFingerprint({
      organizationId: app.organizationId,
      ip,
      platform: dto.platform,
      osVersion: dto.osVersion,
      language: dto.language,
    });
    // One Postgres round trip (stored install, clickId, fingerprint candidates), then one Redis
    // round trip that stores the decision unless an earlier call made one (then that one holds).
    const { stored, byClick, candidates } = await this.repository.lookup(
      app.organizationId,
      app.appId,
      dto.installId,
      dto.clickId ?? null,
      fingerprint,
      now,
    );
    if (stored) {
      const known = fromStored(stored);
      // Re-enqueue (a no-op when stored): covers a first call whose job could not be queued.
      await this.enqueue(app, dto, ip, fingerprint, known, now);
      return known.answer;
    }

    const decided = decide(byClick, candidates);
    const { decision } = await this.store.putIfAbsent(app.appId, dto.installId, decided).catch(() => {
      throw new IngestUnavailableError();
    });
    // Queued on every call until stored (the job id de-duplicates): a first call whose job
    // could not be queued is repaired by the client's retry.
    await this.enqueue(app, dto, ip, fingerprint, decision, now);
    return decision.answer;
  }

  private async enqueue(
    app: AppCredential,
    dto: SdkInstallDto,
    ip: string | null,
    fingerprint: string | null,
    decision: InstallDecision,
    now: Date,
  ): Promise<void> {
    try {
      await this.queue.add(
        'ingest',
        'sdk.install',
        {
          organizationId: app.organizationId,
          appId: app.appId,
          installId: dto.installId,
          platform: dto.platform,
          osVersion: dto.osVersion,
          deviceModel: dto.deviceModel ?? null,
          language: dto.language ?? null,
          appVersion: dto.appVersion ?? null,
          ip,
          fingerprint,
          clickId: decision.clickId,
          linkId: decision.answer.linkId,
          matchType: decision.answer.matchType,
          ambiguous: decision.ambiguous,
          receivedAt: now.toISOString(),
        },
        { jobId: `install-${app.appId}-${dto.installId}`, timeoutMs: 2000 },
      );
    } catch (err) {
      this.logger.error({ err: (err as Error).message, appId: app.appId }, 'install could not be queued');
      throw new IngestUnavailableError();
    }
  }
}
