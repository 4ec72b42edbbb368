import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';

/**
 * A private redis-server child process for fault tests (the shared Redis on 6379 is
 * everyone's and must never be stopped). Append-only with fsync on every write, so what
 * Redis acknowledged survives a SIGKILL: the test then measures the edge, not Redis.
 */
export class RedisChild {
  private proc: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes',
        '--appendfsync', 'always', '--dir', this.dir, '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    const until = Date.now() + 5000;
    for (;;) {
      const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') return;
      } catch {
        if (Date.now() > until) throw new Error(`redis-server on ${this.port} did not start`);
      } finally {
        probe.disconnect();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: the hardest way for Redis to go away. */
  async kill(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  }
}
