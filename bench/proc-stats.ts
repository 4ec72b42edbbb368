/** What the benches read of a process from /proc (Linux): CPU time and resident memory; and the autogroup nice, scheduling policy and CPU affinity they may set. */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, setPriority } from 'node:os';

/** CPU seconds (user + system) a process has used so far (/proc, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Every process whose command is `comm` (the Postgres server's backends and helpers). */
export function pidsOf(comm: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === comm) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds used so far by every process whose command is `comm`. */
export function cpuSecondsOf(comm: string): number {
  let total = 0;
  for (const pid of pidsOf(comm)) {
    try {
      total += cpuSeconds(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Sets the nice of the autogroup of every process whose command is `comm` (Linux with
 * `sched_autogroup_enabled`; root, or the processes' own user). Each Postgres backend leads a
 * session of its own, so each is its own autogroup: this is what an operator's lower CPU weight
 * for the database (systemd `CPUWeight`, a container's `cpu_shares`) does on this host. Returns
 * how many it set; throws when it may not set any.
 */
export function setAutogroupNiceOf(comm: string, nice: number): number {
  let set = 0;
  let refused: unknown = null;
  for (const pid of pidsOf(comm)) {
    try {
      setAutogroupNice(pid, nice);
      set++;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ESRCH') refused = err;
    }
  }
  if (set === 0 && refused) throw new Error(`cannot set the autogroup nice of the ${comm} processes (root or their own user only): ${(refused as Error).message}`);
  return set;
}

/**
 * Sets the nice of every thread of every process whose command is `comm` (root to raise it back).
 * With autogroups on, a task's nice weighs only inside its own session; with them off
 * (`kernel.sched_autogroup_enabled = 0`), it is the process's weight against every other. Returns
 * how many processes it set.
 */
export function setNiceOf(comm: string, nice: number): number {
  let set = 0;
  for (const pid of pidsOf(comm)) {
    try {
      setThreadsNice(pid, nice);
      set++;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ESRCH') throw new Error(`cannot set the nice of the ${comm} processes (root): ${(err as Error).message}`);
    }
  }
  return set;
}

/** Sets the nice of every thread of a process (Linux keeps one per thread; `setPriority(pid)` sets the main thread's only). */
export function setThreadsNice(pid: number, nice: number): void {
  for (const tid of readdirSync(`/proc/${pid}/task`)) setPriority(Number(tid), nice);
}

/** Sets the nice of the autogroup (session) `pid` belongs to (Linux; root or the process's own user). */
export function setAutogroupNice(pid: number, nice: number): void {
  writeFileSync(`/proc/${pid}/autogroup`, String(nice));
}

/**
 * Puts a process's main thread, or every thread (`chrt -a`, what systemd's
 * `CPUSchedulingPolicy=fifo` does; threads started later inherit it), at SCHED_FIFO 1 (on), or
 * back to SCHED_OTHER (off). Root or CAP_SYS_NICE. A diagnostic only: a Node process at SCHED_FIFO
 * livelocks on a core it shares only with real-time tasks (bench/pipeline.ts, --realtime).
 */
export function setSchedFifo(pid: number, on: boolean, allThreads = false): void {
  try {
    execFileSync('chrt', [...(allThreads ? ['-a'] : []), ...(on ? ['-f', '-p', '1'] : ['-o', '-p', '0']), String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new Error(`cannot set the scheduling policy of ${pid} (root, or CAP_SYS_NICE): ${((err as { stderr?: Buffer }).stderr ?? '').toString().trim() || (err as Error).message}`);
  }
}

/** Resident memory of a process in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** The last CPU of this host, and all of them, in taskset's list form. */
export const LAST_CPU = String(cpus().length - 1);
export const ALL_CPUS = `0-${LAST_CPU}`;

/**
 * Pins every thread of a process to `cpuList` (`taskset -a`; threads and children it starts later
 * inherit it). Returns false when the process is gone or may not be pinned (another user's, without root).
 */
export function pinToCpus(pid: number, cpuList: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
