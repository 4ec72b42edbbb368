#!/usr/bin/env node
// The image's entry point: `docker run IMAGE <command>`.
//   api | redirect | ingest | worker   run that app (the production entry of each)
//   migrate                            apply pending migrations to DATABASE_URL, then exit
//   cli <args…>                        the operator CLI (org:create, key:create, …)
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const APPS = ['api', 'redirect', 'ingest', 'worker'];
const [command, ...args] = process.argv.slice(2);

function run(entry, entryArgs) {
  process.argv = [process.argv[0], path.join(root, 'tools/scripts/run.js'), entry, ...entryArgs];
  process.chdir(root);
  require('./run');
}

if (APPS.includes(command)) {
  run(`apps/${command}/src/main.ts`, args);
} else if (command === 'migrate') {
  run('tools/db/migrate.ts', ['deploy', ...args]);
} else if (command === 'cli') {
  run('tools/cli/main.ts', args);
} else {
  process.stderr.write(`usage: <image> ${APPS.join('|')}|migrate|cli …  (got "${command ?? ''}")\n`);
  process.exit(2);
}
