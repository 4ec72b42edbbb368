/**
 * The floor of a redirect on this machine: a bare `node:http` server answering a fixed 302 from an
 * in-memory map, in its own process. Run directly with DL_BENCH_MAP_FILE set (the child), it
 * listens on a free loopback port and prints `READY <url>`.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BareServer {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the bare server for `map` (short code → location). */
export function serveBare(map: Map<string, string>): Promise<BareServer> {
  const root = join(__dirname, '..');
  // The map in a file: thousands of links overflow one environment variable.
  const dir = mkdtempSync(join(tmpdir(), 'dl-bare-'));
  writeFileSync(join(dir, 'map.json'), JSON.stringify([...map]));
  const proc = spawn(process.execPath, [join(root, 'tools/scripts/run.js'), __filename], { cwd: root, env: { ...process.env, DL_BENCH_MAP_FILE: join(dir, 'map.json') }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve(rmSync(dir, { recursive: true, force: true }))));
  const stop = async () => {
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    void exited.then(() => reject(new Error('bare server exited')));
    proc.stdout!.on('data', (chunk: Buffer) => {
      const m = /READY (\S+)/.exec((out += chunk.toString()));
      if (m) resolve({ url: m[1], proc, stop });
    });
  });
}

if (process.argv[1] === __filename && process.env.DL_BENCH_MAP_FILE) {
  const map = new Map<string, string>(JSON.parse(readFileSync(process.env.DL_BENCH_MAP_FILE, 'utf8')) as Array<[string, string]>);
  const server = createServer((req, res) => {
    const location = map.get((req.url ?? '/').slice(1).split('?')[0]);
    if (location) res.writeHead(302, { location, 'cache-control': 'no-store' }).end();
    else res.writeHead(404).end();
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}
