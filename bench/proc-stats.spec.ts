import { ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { autogroupNice, autogroupsOn, threadNices } from '@dl/testing';
import { cpuSecondsOf, pidsOf, setAutogroupNiceOf, setNiceOf } from './proc-stats';

/** Two processes of our own, each leading a session, with a command name no other process has: a copy of `sleep` under a new name. */
function probes(dir: string, name: string): [ChildProcess, ChildProcess] {
  const bin = join(dir, name);
  copyFileSync('/bin/sleep', bin);
  const start = () => spawn(bin, ['30'], { detached: true, stdio: 'ignore' });
  return [start(), start()];
}

const autogroups = autogroupsOn();

describe('proc-stats', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dl-proc-stats-'));
  });
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every process of a command name, and only those', async () => {
    const name = `dlps${process.pid}`;
    const [a, b] = probes(dir, name);
    children.push(a, b);
    await new Promise((r) => setTimeout(r, 100));
    expect(pidsOf(name).sort()).toEqual([a.pid, b.pid].sort());
    expect(pidsOf(`${name}x`)).toEqual([]);
    expect(cpuSecondsOf(name)).toBeGreaterThanOrEqual(0);
  });

  (autogroups ? it : it.skip)("sets the nice of each process's autogroup (each leads a session of its own)", async () => {
    const name = `dlag${process.pid}`;
    const [a, b] = probes(dir, name);
    children.push(a, b);
    await new Promise((r) => setTimeout(r, 100));
    expect([autogroupNice(a.pid!), autogroupNice(b.pid!)]).toEqual([0, 0]);
    expect(setAutogroupNiceOf(name, 7)).toBe(2);
    expect([autogroupNice(a.pid!), autogroupNice(b.pid!)]).toEqual([7, 7]);
    // This process's own session is a different autogroup: untouched.
    expect(readFileSync('/proc/self/autogroup', 'utf8')).not.toMatch(/nice 7\b/);
    expect(setAutogroupNiceOf(`${name}x`, 7)).toBe(0);
  });

  it('sets the nice of every process of a command name, and of no other', async () => {
    const name = `dlni${process.pid}`;
    const [a, b] = probes(dir, name);
    children.push(a, b);
    await new Promise((r) => setTimeout(r, 100));
    const own = threadNices(process.pid);
    expect(setNiceOf(name, 9)).toBe(2);
    expect([...threadNices(a.pid!), ...threadNices(b.pid!)]).toEqual([9, 9]);
    expect(threadNices(process.pid)).toEqual(own);
    expect(setNiceOf(`${name}x`, 9)).toBe(0);
  });
});
