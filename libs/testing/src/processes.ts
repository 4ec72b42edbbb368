import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** Nice value of each thread of a process, main thread first (field 19 of /proc/<pid>/task/<tid>/stat). */
export function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`)
    .sort((a, b) => Number(a) - Number(b))
    .map((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
}

/** Whether this kernel shares CPU between sessions by autogroup (then a nice value counts inside its session). */
export const autogroupsOn = (): boolean =>
  existsSync('/proc/self/autogroup') && readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';

/** The nice value of a process's autogroup (/proc/<pid>/autogroup). */
export const autogroupNice = (pid: number): number => Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))![1]);

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
