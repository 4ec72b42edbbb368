// Preload (`DL_NODE_ARGS="-r bench/alloc-sampling.js"`, e.g. with bench/worker-drain.ts) for a
// benchmarked process: V8's sampling heap profiler over every allocation, including objects
// collected since (what the garbage collector has to work through, not what stays), from 1.5 s
// after start (past boot) until SIGTERM. The profile is written to
// `${DL_ALLOC_PROF_OUT || os.tmpdir()}/alloc-<pid>.heapprofile`; `bench/alloc-top.js <file>` prints
// the allocation sites by sampled bytes. Where a process's garbage comes from, per unit of work.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
setTimeout(() => {
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}, 1500).unref();

process.once('SIGTERM', () => {
  session.post('HeapProfiler.stopSampling', (err, result) => {
    if (!err) writeFileSync(join(process.env.DL_ALLOC_PROF_OUT || tmpdir(), `alloc-${process.pid}.heapprofile`), JSON.stringify(result.profile));
    // The process's own SIGTERM handling (graceful shutdown) runs now.
    process.kill(process.pid, 'SIGTERM');
  });
});
