import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

export interface CpuPriority {
  /** The nice value asked for. */
  nice: number;
  /** Threads of this process now at that nice value (Linux: each thread has its own). */
  threads: number;
  /** Whether this process's session autogroup was lowered as well (Linux, when it leads its own session). */
  autogroup: boolean;
}

/** Fields of /proc/<pid>/stat after the command: the session id is the 4th (field 6 of the whole line). */
function sessionOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

/**
 * Lowers this process's CPU priority to `nice` (1-19), so that on a host it shares it gives way to
 * the processes that answer people (the redirect, the API) whenever both want a core: background
 * work such as the worker's click batches then waits instead of them (issue #19, the redirect's
 * latency while the worker drains on the same cores). Never raises a priority: a thread already
 * nicer is left as it is.
 *
 * Linux keeps a nice value per thread, so every thread of the process is set (V8's and libuv's
 * threads exist before this runs; threads started later inherit it from the thread that starts
 * them). With the kernel's autogroups (`/proc/sys/kernel/sched_autogroup_enabled`, the default
 * of many distributions) a nice value only counts inside the process's session, and CPU is shared
 * between sessions by their autogroup's nice: a process that leads its own session (`npm start`
 * starts each app that way) lowers its autogroup too. One that shares a session (started from a
 * shell or a test harness) leaves the autogroup alone, which would lower its siblings as well.
 * Under a container's or a systemd unit's cgroup autogroups do not apply, and the cgroup's CPU
 * weight (`cpu_shares` in docker-compose.yml) decides between containers.
 */
export function lowerCpuPriority(nice: number): CpuPriority {
  let threads = 0;
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the process has one priority.
    if (getPriority(0) < nice) setPriority(0, nice);
    return { nice, threads: 1, autogroup: false };
  }
  for (const tid of tids) {
    try {
      if (getPriority(Number(tid)) < nice) setPriority(Number(tid), nice);
      threads++;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return { nice, threads, autogroup: lowerAutogroup(nice) };
}

/** The session's autogroup to `nice` when autogroups are on and this process leads its session. */
function lowerAutogroup(nice: number): boolean {
  try {
    if (readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() !== '1') return false;
    if (sessionOf(readFileSync('/proc/self/stat', 'utf8')) !== process.pid) return false;
    const current = Number(/nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'))?.[1] ?? 0);
    if (current >= nice) return true;
    // The kernel takes one autogroup change a tenth of a second from an unprivileged process (EAGAIN).
    for (let attempt = 1; ; attempt++) {
      try {
        writeFileSync('/proc/self/autogroup', String(nice));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || attempt === 5) throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 110);
      }
    }
  } catch {
    // A kernel without autogroups, or one that refuses the change: the threads' nice values still hold.
    return false;
  }
}
