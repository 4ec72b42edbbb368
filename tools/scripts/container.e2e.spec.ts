/**
 * The image's entry point (`docker run IMAGE worker`, tools/scripts/container.js) starts an app
 * with its runtime profile (tools/scripts/runtime-profile.js): the worker runs as a child, gets
 * the signals the container gets, and its exit code is the container's.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { closeAll, configEnv, createTestEnv, freePort, TestEnv, waitUntil } from '@dl/testing';

const root = join(__dirname, '..', '..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function container(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, ['tools/scripts/container.js', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

/** The pids of a process's children, from /proc. */
function childPids(parent: number): number[] {
  const out = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim();
  return out ? out.split(' ').map(Number) : [];
}

/** Command lines (argv) of the children of `parent`. */
function childArgv(parent: number): string[][] {
  return childPids(parent).map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
}

describe('the image entry point (tools/scripts/container.js)', () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv();
  }, 60_000);

  afterAll(() => closeAll(env));

  it('runs the worker as a child at the priority of its runtime profile, and stops it with the container on SIGTERM (exit 0)', async () => {
    const port = await freePort();
    const run = container(['worker'], { PATH: process.env.PATH, ...configEnv(env.config), HOST: '127.0.0.1', WORKER_PORT: String(port) });
    try {
      await waitUntil(
        'the worker answering /health',
        () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false),
        90_000,
      );
      const children = childArgv(run.child.pid!);
      expect(children).toHaveLength(1);
      expect(children[0][0]).toBe(process.execPath);
      expect(children[0].slice(-2)).toEqual([join(root, 'tools/scripts/container.js'), 'worker']);
      expect(getPriority(childPids(run.child.pid!)[0])).toBe(10);
      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
      expect(await fetch(`http://127.0.0.1:${port}/health`).then(() => true, () => false)).toBe(false);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 120_000);

  it('exits with the app child’s code and message when the app cannot start', async () => {
    const run = container(['worker'], { PATH: process.env.PATH });
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain('[worker] cannot start. Invalid configuration:');
    expect(run.output()).toContain('DATABASE_URL is required');
  }, 60_000);
});
