// Preload (`node -r bench/loop-stalls.js …`) for a benchmarked server: on SIGUSR2 it records,
// for DL_STALLS_MS (default 8000) ms, every event-loop stall over 2 ms (a 1 ms timer that fired
// late) and every V8 garbage collection, then writes them as JSON to
// `${DL_STALLS_OUT}/stalls-<pid>.json`. bench/redirect.ts --stalls reads it: which part of a
// tail is the process's own (collections, long tasks) rather than the load generator's or the host's.
const { performance, PerformanceObserver } = require('node:perf_hooks');
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const KIND = { 1: 'scavenge', 2: 'minor-mark-sweep', 4: 'mark-compact', 8: 'incremental', 16: 'weak-callbacks' };
const out = process.env.DL_STALLS_OUT;
const recordMs = Number(process.env.DL_STALLS_MS || 8000);
const gcs = [];
const stalls = [];
let recording = false;

new PerformanceObserver((list) => {
  if (!recording) return;
  for (const e of list.getEntries()) gcs.push({ atMs: Math.round(e.startTime), ms: Number(e.duration.toFixed(2)), kind: KIND[e.detail?.kind] ?? String(e.detail?.kind) });
}).observe({ entryTypes: ['gc'] });

// The main thread's CPU time and run-queue wait (ns, /proc/<pid>/task/<pid>/schedstat): a stall
// the thread spent waiting for a core is the host's; one it spent running is its own work.
const schedstat = `/proc/${process.pid}/task/${process.pid}/schedstat`;
const sched = () => {
  try {
    const [run, wait] = readFileSync(schedstat, 'utf8').split(' ');
    return { run: Number(run), wait: Number(wait) };
  } catch {
    return null;
  }
};
let last = performance.now();
let lastSched = null;
setInterval(() => {
  const now = performance.now();
  const late = now - last - 1;
  last = now;
  if (!recording) return;
  const s = sched();
  if (late > 2) {
    const stall = { atMs: Math.round(now - late), ms: Number(late.toFixed(2)) };
    if (s && lastSched) {
      stall.runMs = Number(((s.run - lastSched.run) / 1e6).toFixed(2));
      stall.waitMs = Number(((s.wait - lastSched.wait) / 1e6).toFixed(2));
    }
    stalls.push(stall);
  }
  lastSched = s;
}, 1).unref();

process.on('SIGUSR2', () => {
  if (recording || !out) return;
  // Each signal starts a new record (a benchmark with several rounds signals once per round).
  gcs.length = 0;
  stalls.length = 0;
  recording = true;
  setTimeout(() => {
    recording = false;
    writeFileSync(join(out, `stalls-${process.pid}.json`), JSON.stringify({ recordMs, gcs, stalls }));
  }, recordMs).unref();
});
