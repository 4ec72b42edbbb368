#!/usr/bin/env node
// Runs a TypeScript entry point of this repo: node tools/scripts/run.js <file.ts> [args...]
require('./register');
const path = require('node:path');

const [, , entry, ...args] = process.argv;
if (!entry) {
  console.error('usage: node tools/scripts/run.js <file.ts> [args...]');
  process.exit(2);
}
process.argv = [process.argv[0], path.resolve(entry), ...args];
require(path.resolve(entry));
