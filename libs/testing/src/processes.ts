import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
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

/** What one run of the operator CLI printed and how it ended (`json`: stdout parsed, when it is JSON). */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json?: Record<string, any>;
}

/**
 * Runs the operator CLI (`npm run cli -- …`) as a child process against a test environment's
 * database and Redis, with only the variables it needs.
 */
export function runCli(
  config: { DATABASE_URL?: string; REDIS_URL?: string; REDIS_PREFIX?: string; JWT_SECRET?: string; SHORT_LINK_BASE_URL?: string },
  args: string[],
  timeout = 60_000,
): Promise<CliRun> {
  const root = join(__dirname, '..', '..', '..');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['tools/scripts/run.js', 'tools/cli/main.ts', ...args],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: config.DATABASE_URL,
          REDIS_URL: config.REDIS_URL,
          REDIS_PREFIX: config.REDIS_PREFIX,
          JWT_SECRET: config.JWT_SECRET,
          SHORT_LINK_BASE_URL: config.SHORT_LINK_BASE_URL,
        },
        timeout,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        let json: Record<string, any> | undefined;
        try {
          json = stdout.trim() ? JSON.parse(stdout) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}
