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
// WEB_CONCURRENCY (node:cluster): forked processes start through this file too, so they get the
// TypeScript hook before the entry (by default a fork would run the .ts entry bare).
const cluster = require('node:cluster');
if (cluster.isPrimary) cluster.setupPrimary({ exec: __filename, args: [entry, ...args] });
require(path.resolve(entry));
