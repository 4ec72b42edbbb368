#!/usr/bin/env node
// Top entries of a V8 CPU profile (`--cpu-prof`): self time by function and by package.
//   node tools/scripts/profile-top.js <file.cpuprofile> [--top 25]
const { readFileSync } = require('node:fs');

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/scripts/profile-top.js <file.cpuprofile> [--top 25]');
  process.exit(2);
}
const i = process.argv.indexOf('--top');
const top = i > 0 ? Number(process.argv[i + 1]) : 25;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let s = 0; s < profile.samples.length; s++) {
  const id = profile.samples[s];
  self.set(id, (self.get(id) ?? 0) + (deltas[s] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const pkg = new Map();
for (const [id, us] of self) {
  const { callFrame: cf } = byId.get(id);
  const where = cf.url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|apps|libs)\//, '$1/');
  const key = `${cf.functionName || '(anonymous)'}  ${where}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(cf.url);
  const group = m ? m[1] : cf.url.includes('/apps/') || cf.url.includes('/libs/') ? 'our code' : cf.url.startsWith('node:') ? 'node core' : cf.functionName.startsWith('(') ? cf.functionName : 'native/other';
  pkg.set(group, (pkg.get(group) ?? 0) + us);
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
console.log('\nby group:');
for (const [k, us] of [...pkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${pct(us)}  ${k}`);
console.log('\nby function (self time):');
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${k}`);
