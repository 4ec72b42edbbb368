import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { autogroupNice, autogroupsOn, threadNices } from '@dl/testing';

const ROOT = join(__dirname, '../../../..');
const linux = existsSync('/proc/self/task');
const autogroups = linux && autogroupsOn();

/**
 * A node process that lowers itself with lowerCpuPriority(nice) (after setting its main thread
 * to `before`, when given), then starts a worker thread, prints the result and waits for stdin
 * to close: the test reads its /proc meanwhile.
 */
async function child(nice: number, opts: { ownSession: boolean; before?: number }) {
  const script = `
    const { setPriority } = require('node:os');
    ${opts.before === undefined ? '' : `setPriority(0, ${opts.before});`}
    const { lowerCpuPriority } = require(${JSON.stringify(join(__dirname, 'cpu-priority.ts'))});
    const result = lowerCpuPriority(${nice});
    const { Worker } = require('node:worker_threads');
    const late = new Worker('setInterval(() => {}, 1000)', { eval: true });
    late.on('online', () => process.stdout.write(JSON.stringify(result) + '\\n'));
    process.stdin.on('end', () => process.exit(0)).resume();
  `;
  const proc = spawn(process.execPath, ['-r', join(ROOT, 'tools/scripts/register.js'), '-e', script], {
    cwd: ROOT,
    detached: opts.ownSession,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    proc.once('exit', (code) => reject(new Error(`child exited with ${code}: ${out}`)));
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  return {
    pid: proc.pid!,
    result: JSON.parse(line) as { nice: number; threads: number; autogroup: boolean },
    stop: async () => {
      proc.stdin!.end();
      await exited;
    },
  };
}

(linux ? describe : describe.skip)('lowerCpuPriority', () => {
  it('sets every thread, and threads started after it inherit the nice value', async () => {
    const c = await child(7, { ownSession: false });
    try {
      const nices = threadNices(c.pid);
      expect(c.result.threads).toBeGreaterThan(1);
      // The worker thread started after the call is counted here and has 7 too.
      expect(nices.length).toBeGreaterThan(c.result.threads);
      expect(new Set(nices)).toEqual(new Set([7]));
    } finally {
      await c.stop();
    }
  });

  it('leaves the autogroup alone when the process shares its session', async () => {
    const c = await child(9, { ownSession: false });
    try {
      expect(c.result.autogroup).toBe(false);
      if (autogroups) {
        expect(readFileSync(`/proc/${c.pid}/autogroup`, 'utf8')).toBe(readFileSync('/proc/self/autogroup', 'utf8'));
      }
    } finally {
      await c.stop();
    }
  });

  (autogroups ? it : it.skip)('lowers the autogroup of a process that leads its own session', async () => {
    const c = await child(11, { ownSession: true });
    try {
      expect(c.result).toEqual({ nice: 11, threads: expect.any(Number), autogroup: true });
      expect(autogroupNice(c.pid)).toBe(11);
      expect(new Set(threadNices(c.pid))).toEqual(new Set([11]));
    } finally {
      await c.stop();
    }
  });

  it('never raises a priority: a thread already nicer keeps its value', async () => {
    const c = await child(5, { ownSession: false, before: 15 });
    try {
      const nices = threadNices(c.pid);
      // The main thread (and the worker thread it started) at 15; V8's threads, started before, at 5.
      expect(nices[0]).toBe(15);
      expect(new Set(nices)).toEqual(new Set([5, 15]));
    } finally {
      await c.stop();
    }
  });
});
