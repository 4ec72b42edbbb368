// Require hook: runs the TypeScript sources directly (SWC transpiles each file
// once, about 1 ms a file) and resolves the @dl/* path aliases.
// Type checking is a separate step: `npm run typecheck`.
//
// Transpiled files are kept in node_modules/.cache/dl-ts (keyed by path, source and
// SWC options), and SWC itself is only loaded on a miss: a process that finds every
// file there never maps SWC's native binding, which with its transform buffers costs
// ~40 MB of resident memory per process (measured on the redirect app).
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { swcOptions, resolveAlias, root } = require('../../swc.config');

const CACHE_DIR = path.join(root, 'node_modules', '.cache', 'dl-ts');

let swc = null;
let cacheSalt = null;

function transpile(source, filename) {
  swc ??= require('@swc/core');
  return swc.transformSync(source, { ...swcOptions, filename }).code;
}

function salt() {
  if (cacheSalt === null) {
    let version = '';
    try {
      version = require('@swc/core/package.json').version;
    } catch {
      // no version: the options alone key the cache
    }
    cacheSalt = `${version}\n${JSON.stringify(swcOptions)}\n`;
  }
  return cacheSalt;
}

function compileCached(source, filename) {
  const key = createHash('sha256').update(salt()).update(filename).update('\n').update(source).digest('hex');
  const file = path.join(CACHE_DIR, `${key.slice(0, 40)}.js`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // not cached yet
  }
  const code = transpile(source, filename);
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed: concurrent processes never read a half-written file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  } catch {
    // read-only checkout: transpile every time
  }
  return code;
}

if (!global.__dlRegistered) {
  global.__dlRegistered = true;
  const originalResolve = Module._resolveFilename;
  Module._resolveFilename = function resolve(request, parent, ...rest) {
    const aliased = request.startsWith('@dl/') ? resolveAlias(request) : null;
    return originalResolve.call(this, aliased ?? request, parent, ...rest);
  };
  const useCache = process.env.DL_TS_CACHE !== '0';
  Module._extensions['.ts'] = function compile(module, filename) {
    const source = fs.readFileSync(filename, 'utf8');
    module._compile(useCache ? compileCached(source, filename) : transpile(source, filename), filename);
  };
  process.setSourceMapsEnabled?.(true);
}
