#!/usr/bin/env node
// The registry reachable here lacks some other-platform optional binaries
// (@swc/core-darwin-*, @unrs/resolver-binding-*, @msgpackr-extract/*). `npm install`
// leaves them out of package-lock.json but keeps them in their parent's
// optionalDependencies, and `npm ci` then stops with "Missing: ... from lock file".
// This drops every optional dependency the lockfile cannot resolve. Run it after
// every change to the lockfile (`npm run lockfile:fix`).
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const pkgs = lock.packages;

function resolves(from, name) {
  let base = from;
  for (;;) {
    if (pkgs[(base ? `${base}/` : '') + `node_modules/${name}`]) return true;
    if (!base) return false;
    const i = base.lastIndexOf('/node_modules/');
    base = i >= 0 ? base.slice(0, i) : '';
  }
}

let removed = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  const optional = entry.optionalDependencies;
  if (!optional) continue;
  for (const name of Object.keys(optional)) {
    if (!resolves(key, name)) {
      delete optional[name];
      removed++;
    }
  }
  if (Object.keys(optional).length === 0) delete entry.optionalDependencies;
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: removed ${removed} unresolvable optional dependencies`);
