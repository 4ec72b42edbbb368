// The runtime profile of each app, in one place: the node flags, environment and CPU priority it
// starts with. Every path that starts an app applies it: `npm start`'s supervisor
// (tools/start/supervisor.ts), the image's entry (tools/scripts/container.js, which
// docker-compose.yml runs) and the test and bench harness (spawnApp in libs/testing). It applies at
// start because V8 sizes its heaps and glibc its allocator then. The operator's own environment
// wins over `env`. Why each value: docs/decisions/operations.md, "One runtime profile per app".
const { writeFileSync } = require('node:fs');

const PROFILES = {
  api: {},
  redirect: {
    // Old-generation growth fixed at 50%: a full collection comes before the heap is several times
    // its live size (most old-space garbage is request and batch data a scavenge caught in flight).
    nodeArgs: ['--heap-growing-percent=50'],
  },
  ingest: {},
  worker: {
    // 8 MB semi-spaces (V8 grows them to 16 MB) and a full collection sooner (25%): a lower peak
    // memory while draining a backlog, for about the same CPU per click.
    nodeArgs: ['--max-semi-space-size=8', '--heap-growing-percent=25'],
    // Two malloc arenas instead of one per allocating thread (up to 8 per core): a lower peak memory.
    env: { MALLOC_ARENA_MAX: '2' },
    // Below the apps that answer people: on a host it shares, click batches wait for a core, requests do not.
    nice: 10,
  },
};

/** The profile of `app`: node flags, environment, nice value (0: as started). */
function profileOf(app) {
  const p = PROFILES[app] ?? {};
  return { nodeArgs: p.nodeArgs ?? [], env: { ...(p.env ?? {}) }, nice: p.nice ?? 0 };
}

/**
 * How to start `app` with its profile: node with the profile's flags before `entry` (its arguments),
 * under `nice` when the profile lowers the priority (unless `priority: false`, as tests run), with the
 * profile's variables under the caller's `env`.
 */
function appCommand(app, entry, env, { priority = true } = {}) {
  const profile = profileOf(app);
  const node = [process.execPath, ...profile.nodeArgs, ...entry];
  const argv = priority && profile.nice > 0 ? ['nice', '-n', String(profile.nice), ...node] : node;
  return { command: argv[0], args: argv.slice(1), env: { ...profile.env, ...env } };
}

/**
 * On kernels with autogroups (`/proc/sys/kernel/sched_autogroup_enabled`), CPU is shared between
 * sessions first and a nice value counts only inside its session: an app started in a session of its
 * own (detached, as `npm start` starts each) gets its profile's nice for the whole session too. Best
 * effort: a kernel without autogroups keeps the process's own nice value. The kernel takes one such
 * change a tenth of a second from an unprivileged process, hence the retries.
 */
function lowerAutogroup(pid, app) {
  const { nice } = profileOf(app);
  for (let attempt = 1; nice > 0 && attempt <= 5; attempt++) {
    try {
      return writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    } catch (err) {
      if (err.code !== 'EAGAIN') return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 110);
    }
  }
}

module.exports = { profileOf, appCommand, lowerAutogroup };
