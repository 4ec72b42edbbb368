// Prints a sampling heap profile's allocation sites by sampled bytes (self, with the two callers
// that led there): `node bench/alloc-top.js <file.heapprofile> [count]`. See bench/alloc-sampling.js.
const { readFileSync } = require('node:fs');

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] || 30);
const bytesByNode = new Map();
for (const s of profile.samples) bytesByNode.set(s.nodeId, (bytesByNode.get(s.nodeId) || 0) + s.size);
const name = (f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/.*node_modules\//, '').replace(/^.*?\/(apps|libs|bench|tools)\//, '$1/')}:${f.lineNumber + 1}`;
const sites = new Map();
let total = 0;
(function walk(node, callers) {
  const bytes = bytesByNode.get(node.id) || 0;
  total += bytes;
  if (bytes) {
    const key = `${name(node.callFrame)}  <- ${callers.slice(-2).reverse().join(' <- ')}`;
    sites.set(key, (sites.get(key) || 0) + bytes);
  }
  for (const child of node.children) walk(child, [...callers, node.callFrame.functionName || '(anonymous)']);
})(profile.head, []);
console.log(`sampled allocation: ${(total / 1048576).toFixed(0)} MB`);
for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(bytes / 1048576).toFixed(1).padStart(7)} MB  ${site}`);
