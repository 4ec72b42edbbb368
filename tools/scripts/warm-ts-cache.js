#!/usr/bin/env node
// Fills the require hook's transpile cache (node_modules/.cache/dl-ts) with every source file
// the apps, the CLI and the migrations can load, without running any of them. Run when the
// image is built: otherwise each process's first start after a deploy transpiles its files and
// keeps SWC's native binding mapped for its lifetime (about 40 MB resident).
//   node tools/scripts/warm-ts-cache.js
const fs = require('node:fs');
const path = require('node:path');
const { compileCached } = require('./register');
const { root } = require('../../swc.config');

const DIRS = ['apps/api/src', 'apps/redirect/src', 'apps/ingest/src', 'apps/worker/src', 'libs', 'tools/cli', 'tools/db'];
// Test fixtures and kits: never loaded by the apps.
const SKIP = new Set([path.join(root, 'libs/testing')]);

function* sources(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !SKIP.has(file)) yield* sources(file);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.spec.ts')) {
      yield file;
    }
  }
}

let count = 0;
for (const dir of DIRS) {
  for (const file of sources(path.join(root, dir))) {
    compileCached(fs.readFileSync(file, 'utf8'), file);
    count++;
  }
}
process.stdout.write(`transpile cache: ${count} files\n`);
