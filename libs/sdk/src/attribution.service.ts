import { Injectable, Logger } from '@nestjs/common';
import { deviceFingerprint } from '@dl/clicks';
import { JobQueue, Queues } from '@dl/platform/queue';
import { AppCredential } from './apps.repository';
import { AttributionReads, AttributionRepository, CandidateClick, StoredInstall } from './attribution.repository';
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

  /**
   * `gate` (optional): a check that must pass before anything is written (the ingest app's
   * install route passes the rate limit, so the read runs while Redis counts the call). It is awaited before
   * any write and wins over a failed read, so a limited call answers 429 and writes nothing.
   */
  async attribute(app: AppCredential, dto: SdkInstallDto, ip: string | null, now = new Date(), gate?: Promise<unknown>): Promise<SdkInstallResponse> {
    const fingerprint = deviceFingerprint({
      organizationId: app.organizationId,
      ip,
      platform: dto.platform,
      osVersion: dto.osVersion,
      language: dto.language,
    });
    // One Postgres round trip (stored install, clickId, fingerprint candidates), then one Redis
    // round trip that stores the decision unless an earlier call made one (then that one holds).
    let reads: AttributionReads;
    try {
      reads = await this.repository.lookup(app.organizationId, app.appId, dto.installId, dto.clickId ?? null, fingerprint, now);
    } finally {
      if (gate) await gate;
    }
    const { stored, byClick, candidates } = reads;
    if (stored) {
      const known = fromStored(stored);
      // Re-enqueue (a no-op when stored): covers a first call whose job could not be queued.
      await this.enqueue(app, dto, ip, fingerprint, known, now);
      return known.answer;
    }

    // The decision and the job leave together (one round trip, not two): the job carries our
    // decision, but the worker stores the one kept in Redis (the earlier call's when ours lost
    // the SET NX), so the stored install always matches what every caller was answered.
    // Queued on every call until stored (the job id de-duplicates): a first call whose job
    // could not be queued is repaired by the client's retry.
    const decided = decide(byClick, candidates);
    const [put, queued] = await Promise.allSettled([
      this.store.putIfAbsent(app.appId, dto.installId, decided),
      this.enqueue(app, dto, ip, fingerprint, decided, now),
    ]);
    if (put.status === 'rejected') throw new IngestUnavailableError();
    if (queued.status === 'rejected') throw queued.reason;
    return put.value.decision.answer;
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
        Queues.ingest,
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
