// Preload (`DL_NODE_ARGS="-r bench/alloc-sampling.js"`, e.g. with bench/worker-drain.ts) for a
// benchmarked process: V8's sampling heap profiler over every allocation, including objects
// collected since (what the garbage collector has to work through, not what stays), from 1.5 s
// after start (past boot) until SIGTERM. The profile is written to
// `${DL_ALLOC_PROF_OUT || os.tmpdir()}/alloc-<pid>.heapprofile`; `bench/alloc-top.js <file>` prints
// the allocation sites by sampled bytes. Where a process's garbage comes from, per unit of work.
// With `DL_ALLOC_PROMOTED=1` the objects a scavenge collected are left out: what is left is what
// reached the old generation (promoted, then collected by a full collection, or still live), the
// allocation that makes mark-compacts.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
setTimeout(() => {
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.DL_ALLOC_PROMOTED !== '1' });
}, 1500).unref();

const write = (then) =>
  session.post('HeapProfiler.stopSampling', (err, result) => {
    if (!err) writeFileSync(join(process.env.DL_ALLOC_PROF_OUT || tmpdir(), `alloc-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    then();
  });
// `DL_ALLOC_STOP_MS`: the profile is written that long after start instead (for a process whose
// own SIGTERM handling ends it before the profile is out).
if (process.env.DL_ALLOC_STOP_MS) setTimeout(() => write(() => undefined), Number(process.env.DL_ALLOC_STOP_MS)).unref();
else
  process.once('SIGTERM', () => {
    // The process's own SIGTERM handling (graceful shutdown) runs once the profile is written.
    write(() => process.kill(process.pid, 'SIGTERM'));
  });
