import { execFileSync } from 'node:child_process';
import type { AppProcess } from './private-servers';

/** Polls `check` every 100 ms until it holds; throws naming `what` after `ms`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many of a production entry's processes logged `<app> listening` (WEB_CONCURRENCY). */
export function listeningCount(p: AppProcess, app: string): number {
  return p.output().split(`${app} listening`).length - 1;
}

/** The PIDs of a spawned app's child processes (the node:cluster workers of its primary). */
export function childPids(p: AppProcess): string[] {
  return execFileSync('ps', ['-o', 'pid=', '--ppid', String(p.proc.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}
