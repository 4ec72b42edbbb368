/**
 * Runs each app as its own process (`node tools/scripts/run.js apps/<app>/src/main.ts`,
 * the production entry), restarts one that dies with a growing delay, and stops them
 * all together. One process per app keeps the worker's click batches off the
 * redirect's event loop.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Logger } from 'pino';

export interface AppSpec {
  name: string;
  port: number;
}

/** Delay before the n-th restart in a row: 1 s, 2 s, 4 s … at most 30 s. */
export function backoffMs(consecutive: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, consecutive - 1));
}

/** A run this long counts as healthy: the next crash restarts after 1 s again. */
const STABLE_MS = 60_000;

class Supervised {
  child: ChildProcess | null = null;
  private consecutive = 0;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    readonly spec: AppSpec,
    private readonly root: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.startedAt = Date.now();
    // The app's runtime profile (tools/scripts/runtime-profile.js: flags, environment, priority),
    // as the image and the test harness apply it; the operator's own environment wins.
    const { appCommand, lowerAutogroup } = require(join(this.root, 'tools/scripts/runtime-profile.js')) as typeof import('../scripts/runtime-profile');
    const start = appCommand(this.spec.name, [join(this.root, 'tools/scripts/run.js'), `apps/${this.spec.name}/src/main.ts`], this.env);
    const child = spawn(start.command, start.args, {
      cwd: this.root,
      env: start.env,
      // Own process group: Ctrl-C reaches the supervisor only, which stops everything in order.
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (child.pid) lowerAutogroup(child.pid, this.spec.name);
    this.child = child;
    child.once('exit', (code, signal) => {
      this.child = null;
      if (this.stopping) return;
      if (Date.now() - this.startedAt >= STABLE_MS) this.consecutive = 0;
      this.consecutive++;
      const delay = backoffMs(this.consecutive);
      this.log.warn(
        `${this.spec.name} exited (${signal ? `signal ${signal}` : `code ${code}`}); restarting in ${delay / 1000} s (restart ${this.consecutive} in a row)`,
      );
      this.timer = setTimeout(() => {
        this.timer = null;
        if (!this.stopping) this.start();
      }, delay);
    });
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      this.log.warn(`${this.spec.name} did not stop within ${graceMs / 1000} s: killing it`);
      child.kill('SIGKILL');
    }, graceMs);
    await gone;
    clearTimeout(timer);
  }
}

export class Supervisor {
  private readonly apps: Supervised[];

  constructor(specs: AppSpec[], root: string, env: NodeJS.ProcessEnv, log: Logger) {
    this.apps = specs.map((s) => new Supervised(s, root, env, log));
  }

  start(): void {
    for (const app of this.apps) app.start();
  }

  /** SIGTERM to every app at once (each drains and closes on its own), SIGKILL after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    await Promise.all(this.apps.map((a) => a.stop(graceMs)));
  }

  pids(): Record<string, number | undefined> {
    return Object.fromEntries(this.apps.map((a) => [a.spec.name, a.child?.pid]));
  }
}

/** Polls `GET /health` on every app until all answer 200; resolves false after `timeoutMs`. */
export async function waitForHealth(specs: AppSpec[], timeoutMs: number, host = '127.0.0.1'): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(specs.map((s) => s.port));
  while (pending.size && Date.now() < deadline) {
    await Promise.all(
      [...pending].map(async (port) => {
        try {
          const res = await fetch(`http://${host}:${port}/health`, { signal: AbortSignal.timeout(2000) });
          await res.arrayBuffer();
          if (res.ok) pending.delete(port);
        } catch {
          // not up yet
        }
      }),
    );
    if (pending.size) await new Promise((r) => setTimeout(r, 200));
  }
  return pending.size === 0;
}
