/** Why a feed or Safe Browsing blocks a destination (the words of decisions §22). */
export type ThreatReason = 'malware' | 'blocklisted URL' | 'blocklisted domain' | 'phishing' | 'unwanted software' | 'credentials in URL';

export type SafetyStatus = 'ok' | 'suspicious' | 'blocked';

/** The outcome of screening one destination. */
export interface Verdict {
  status: SafetyStatus;
  /** Why it is blocked or suspicious; null when ok. */
  reason: string | null;
  /** Safe Browsing could not be asked: accepted now, re-checked later by the worker. */
  pending?: boolean;
}

export const OK: Verdict = Object.freeze({ status: 'ok', reason: null }) as Verdict;

/** The worst of several verdicts (blocked > suspicious > ok), the first reason of that rank. */
export function worst(verdicts: Iterable<Verdict>): Verdict {
  const rank = { ok: 0, suspicious: 1, blocked: 2 } as const;
  let out = OK;
  for (const v of verdicts) if (rank[v.status] > rank[out.status]) out = v;
  return out;
}
