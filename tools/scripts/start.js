#!/usr/bin/env node
// `npm start`: generates the Prisma client when it is missing or older than the schema
// (or the installed Prisma), then runs tools/start.ts. Skipping an up-to-date
// generation saves seconds on every start after the first.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const generated = path.join(root, 'libs/platform/db/src/generated/prisma');

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function generatedAt() {
  let oldest = Infinity;
  let any = false;
  try {
    for (const name of fs.readdirSync(generated)) {
      const file = path.join(generated, name);
      if (!fs.statSync(file).isFile()) continue;
      any = true;
      oldest = Math.min(oldest, mtime(file));
    }
  } catch {
    return 0;
  }
  return any ? oldest : 0;
}

const sources = Math.max(mtime(path.join(root, 'prisma/schema.prisma')), mtime(path.join(root, 'node_modules/prisma/package.json')));
if (generatedAt() <= sources) {
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const res = spawnSync(npm[0], [...npm[1], 'run', '--silent', 'db:generate'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
process.argv = [process.argv[0], path.join(__dirname, 'run.js'), 'tools/start.ts', ...process.argv.slice(2)];
process.chdir(root);
require('./run');
