import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `bench/loop-stalls.js` (preloaded with `-r`) wrote for a benchmarked server. */
interface StallsRecord {
  recordMs: number;
  gcs: Array<{ atMs: number; ms: number; kind: string }>;
  /** runMs / waitMs: the main thread's CPU time and run-queue wait during the stall (Linux schedstat). */
  stalls: Array<{ atMs: number; ms: number; runMs?: number; waitMs?: number }>;
}

/** What bench/loop-stalls.js recorded in the redirect during the half-rate round, summed up. */
export async function stallsSummary(dir: string, pid: number, seconds: number) {
  const file = join(dir, `stalls-${pid}.json`);
  const deadline = Date.now() + 5000 + seconds * 1000;
  while (!existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(file)) return { error: 'the redirect wrote no stall record' };
  const { recordMs, gcs, stalls } = JSON.parse(readFileSync(file, 'utf8')) as StallsRecord;
  const round = (n: number) => Math.round(n * 10) / 10;
  const fullGcs = gcs.filter((g) => g.kind === 'mark-compact');
  // A stall within 50 ms of a full collection's pause belongs to it (its incremental marking steps come just before).
  const nearFull = (s: { atMs: number; ms: number }) => fullGcs.some((g) => s.atMs <= g.atMs + g.ms + 5 && s.atMs + s.ms >= g.atMs - 50);
  const worst = stalls.map((s) => s.ms).sort((a, b) => b - a);
  return {
    recordedSeconds: recordMs / 1000,
    stallsOver2Ms: stalls.length,
    stalledMs: round(stalls.reduce((n, s) => n + s.ms, 0)),
    /** Of the stalled time: the main thread running (its own work, collections included) and waiting for a core. */
    stalledMsRunning: round(stalls.reduce((n, s) => n + (s.runMs ?? 0), 0)),
    stalledMsWaitingForACore: round(stalls.reduce((n, s) => n + (s.waitMs ?? 0), 0)),
    stalledMsNearFullCollections: round(stalls.filter(nearFull).reduce((n, s) => n + s.ms, 0)),
    worstStallsMs: worst.slice(0, 5),
    scavenges: gcs.filter((g) => g.kind === 'scavenge').length,
    /** The scavenges' pauses: all of them added up, and the longest. */
    scavengeMs: round(gcs.filter((g) => g.kind === 'scavenge').reduce((n, g) => n + g.ms, 0)),
    longestScavengeMs: gcs.filter((g) => g.kind === 'scavenge').reduce((n, g) => Math.max(n, g.ms), 0),
    fullCollections: fullGcs.length,
    fullCollectionPausesMs: fullGcs.map((g) => g.ms),
  };
}
