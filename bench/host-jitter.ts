/**
 * How late this host wakes a sleeping thread: naps of 0.2 ms on a futex in a loop for
 * `--seconds`, and the overshoot of each. On a quiet host the worst is well under a millisecond;
 * a host whose virtual CPUs are descheduled shows stalls of several, and no server on it can
 * show a p99 below them. Run it before trusting a latency figure.
 *
 *   node tools/scripts/run.js bench/host-jitter.ts [--seconds 5]
 */
const i = process.argv.indexOf('--seconds');
const seconds = i > 0 ? Number(process.argv[i + 1]) : 5;
const nap = new Int32Array(new SharedArrayBuffer(4));
const NAP_MS = 0.2;
const late: number[] = [];
const end = performance.now() + seconds * 1000;
while (performance.now() < end) {
  const t = performance.now();
  Atomics.wait(nap, 0, 0, NAP_MS);
  late.push(performance.now() - t - NAP_MS);
}
late.sort((a, b) => a - b);
const q = (p: number) => Math.round(late[Math.min(late.length - 1, Math.floor(late.length * p))] * 1000) / 1000;
process.stdout.write(`${JSON.stringify({ bench: 'host-jitter', seconds, naps: late.length, lateMs: { p50: q(0.5), p99: q(0.99), p999: q(0.999), max: q(1) } })}\n`);
