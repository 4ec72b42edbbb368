#!/usr/bin/env node
// The image's entry point: `docker run IMAGE <command>`.
//   api | redirect | ingest | worker   run that app (the production entry of each)
//   migrate                            apply pending migrations to DATABASE_URL, then exit
//   cli <args…>                        the operator CLI (org:create, key:create, …)
const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');
const { appCommand, profileOf } = require('./runtime-profile');

const root = path.resolve(__dirname, '..', '..');
const APPS = ['api', 'redirect', 'ingest', 'worker'];
const [command, ...args] = process.argv.slice(2);

function run(entry, entryArgs) {
  process.argv = [process.argv[0], path.join(root, 'tools/scripts/run.js'), entry, ...entryArgs];
  process.chdir(root);
  require('./run');
}

/**
 * An app whose runtime profile (runtime-profile.js: flags, environment, priority) this process was
 * not started with runs as a child that has it (the environment's own values win): signals go to
 * it, its exit code is ours. In a container the priority counts against the container's other
 * processes only; between containers the CPU weight docker-compose.yml gives the worker does.
 */
function runWithProfile() {
  const start = appCommand(command, [__filename, command, ...args], process.env);
  const child = spawn(start.command, start.args, { stdio: 'inherit', env: start.env });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
}

if (APPS.includes(command)) {
  const profile = profileOf(command);
  const applied =
    profile.nodeArgs.every((arg) => process.execArgv.includes(arg)) && Object.keys(profile.env).every((name) => name in process.env) && os.getPriority() >= profile.nice;
  if (applied) run(`apps/${command}/src/main.ts`, args);
  else runWithProfile();
} else if (command === 'migrate') {
  run('tools/db/migrate.ts', ['deploy', ...args]);
} else if (command === 'cli') {
  run('tools/cli/main.ts', args);
} else {
  process.stderr.write(`usage: <image> ${APPS.join('|')}|migrate|cli …  (got "${command ?? ''}")\n`);
  process.exit(2);
}
