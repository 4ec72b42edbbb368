/**
 * The floor of a redirect on this machine: a bare `node:http` server answering a fixed 302 from an
 * in-memory map, in its own process (run directly with DL_BENCH_MAP_FILE set, it serves that map).
 * Imports nothing heavy: the bare server's process stays bare.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A child process serving HTTP on `url`; `stop()` sends SIGTERM and resolves once it has exited. */
export interface ReadyChild {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts `file` through tools/scripts/run.js with `env` added; resolves once it prints `READY <url>`. */
function spawnReady(file: string, env: Record<string, string>): Promise<ReadyChild> {
  const root = join(__dirname, '..');
  const proc = spawn(process.execPath, [join(root, 'tools/scripts/run.js'), file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    void exited.then(() => reject(new Error(`${file} exited before it was ready`)));
    proc.stdout.on('data', (chunk: Buffer) => {
      const m = /READY (\S+)/.exec((out += chunk.toString()));
      if (m) resolve({ url: m[1], pid: proc.pid!, stop });
    });
  });
}

/** Starts the bare server for `map` (short code → location). The map goes in a file: thousands of links overflow one environment variable. */
export function serveBare(map: Map<string, string>): Promise<ReadyChild> {
  const file = join(mkdtempSync(join(tmpdir(), 'dl-bare-')), 'map.json');
  writeFileSync(file, JSON.stringify([...map]));
  return spawnReady(__filename, { DL_BENCH_MAP_FILE: file });
}

if (process.argv[1] === __filename && process.env.DL_BENCH_MAP_FILE) {
  const file = process.env.DL_BENCH_MAP_FILE;
  const map = new Map<string, string>(JSON.parse(readFileSync(file, 'utf8')) as Array<[string, string]>);
  rmSync(dirname(file), { recursive: true, force: true });
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
