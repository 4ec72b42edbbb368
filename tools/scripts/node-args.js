// Node flags and environment an app is started with, on every path that starts one: `npm start`'s
// supervisor (tools/start/supervisor.ts), the image (tools/scripts/container.js), the test and
// bench harness (spawnApp in libs/testing). They must be there when the process starts: V8 sizes
// its heaps and glibc its allocator then, so `v8.setFlagsFromString` or `process.env` in main.ts
// is too late for these.
//
// worker: 8 MB semi-spaces (V8's default grows them to 16 MB) — the young generation a click
// batch's short-lived objects cycle through. Peak resident memory while draining 231-236 MB
// instead of 243-249 MB (276-285 MB in some runs), for the same CPU per click
// (docs/performance.md, "The worker's young generation").
const APP_NODE_ARGS = {
  worker: ['--max-semi-space-size=8'],
};

// worker: two glibc malloc arenas instead of one per thread up to 8 per core (V8's helper threads
// and libuv's pool each got one, 1-2 MB resident apiece): peak resident memory while draining a
// 60,000-click backlog 228-241 MB (median 231) against 230-240 (median 237) in 12 alternating
// runs each, CPU per click unchanged (docs/performance.md, "Two malloc arenas for the worker").
// An operator's own value in the environment wins.
const APP_ENV = {
  worker: { MALLOC_ARENA_MAX: '2' },
};

/** @param {string} app @returns {string[]} */
function appNodeArgs(app) {
  return APP_NODE_ARGS[app] ?? [];
}

/** @param {string} app @returns {Record<string, string>} */
function appEnv(app) {
  return { ...(APP_ENV[app] ?? {}) };
}

module.exports = { appNodeArgs, appEnv };
