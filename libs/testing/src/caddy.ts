import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './private-servers';

export const CADDY_BIN = '/usr/bin/caddy';

export interface PrivateCaddyOptions {
  /** Where every request goes, e.g. `http://127.0.0.1:41234` (the redirect app). */
  upstream: string;
  /** The on-demand TLS `ask` endpoint, e.g. `http://127.0.0.1:41234/tls/ask`. */
  ask: string;
}

/**
 * Debian's Caddy (`/usr/bin/caddy`, installed by `.ci/run`) as a child process on free loopback
 * ports, in front of an app: one catch-all HTTPS site with on-demand certificates from Caddy's
 * internal CA, issued only when `ask` answers 200 (the deploy/Caddyfile's branded-domain site,
 * with `tls internal` instead of ACME). Everything it writes (certificates, its CA, autosave) stays
 * in a temporary directory (HOME and XDG_* point there; `skip_install_trust` keeps it out of the
 * system trust store; the admin API is off). Stopped by its PID.
 */
export class PrivateCaddy {
  private output = '';

  private constructor(
    readonly httpsPort: number,
    readonly httpPort: number,
    readonly dir: string,
    private readonly proc: ChildProcess,
    private readonly exited: Promise<unknown>,
  ) {
    proc.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  static async start({ upstream, ask }: PrivateCaddyOptions): Promise<PrivateCaddy> {
    if (!existsSync(CADDY_BIN)) throw new Error(`${CADDY_BIN} is missing: install Debian's caddy package (.ci/run does: apt-get install caddy)`);
    const [httpsPort, httpPort] = [await freePort(), await freePort()];
    const dir = mkdtempSync(join(tmpdir(), 'dl-caddy-'));
    const caddyfile = join(dir, 'Caddyfile');
    writeFileSync(
      caddyfile,
      [
        '{',
        '\tadmin off',
        '\tskip_install_trust',
        `\thttp_port ${httpPort}`,
        `\thttps_port ${httpsPort}`,
        `\tstorage file_system {\n\t\troot ${join(dir, 'data')}\n\t}`,
        `\ton_demand_tls {\n\t\task ${ask}\n\t}`,
        '}',
        '',
        'https:// {',
        '\tbind 127.0.0.1',
        '\ttls internal {\n\t\ton_demand\n\t}',
        `\treverse_proxy ${new URL(upstream).host}`,
        '}',
        '',
      ].join('\n'),
    );
    const proc = spawn(CADDY_BIN, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let failed: Error | null = null;
    const exited = new Promise((resolve) => {
      proc.once('exit', resolve);
      proc.once('error', (err) => resolve((failed = err)));
    });
    const caddy = new PrivateCaddy(httpsPort, httpPort, dir, proc, exited);
    const deadline = Date.now() + 15_000;
    while (!(await accepts(httpsPort))) {
      if (failed || proc.exitCode !== null || proc.signalCode !== null || Date.now() > deadline) {
        await caddy.stop();
        throw new Error(`caddy did not listen on ${httpsPort}: ${failed ? String(failed) : ''}\n${caddy.logs().slice(-3000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return caddy;
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** The PEM of Caddy's internal root CA (exists once Caddy has issued its first certificate). */
  rootCertificate(): string {
    return readFileSync(join(this.dir, 'data', 'pki', 'authorities', 'local', 'root.crt'), 'utf8');
  }

  /** The names Caddy holds a certificate for (its internal issuer's storage). */
  certificates(): string[] {
    const issued = join(this.dir, 'data', 'certificates', 'local');
    return existsSync(issued) ? readdirSync(issued).sort() : [];
  }

  /** Everything Caddy logged (JSON lines). */
  logs(): string {
    return this.output;
  }

  /** SIGTERM by PID, then removes the temporary directory. */
  async stop(): Promise<void> {
    if (this.proc.pid !== undefined && this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill('SIGTERM');
      const killed = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(killed);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
