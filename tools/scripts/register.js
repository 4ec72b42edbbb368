// Require hook: runs the TypeScript sources directly (SWC transpiles each file
// once, about 1 ms a file) and resolves the @dl/* path aliases.
// Type checking is a separate step: `npm run typecheck`.
//
// Transpiled files are kept in node_modules/.cache/dl-ts (keyed by path, source and
// SWC options), and SWC itself is only loaded on a miss: a process that finds every
// file there never maps SWC's native binding, which with its transform buffers costs
// tens of MB of resident memory per process.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { swcOptions, resolveAlias, root } = require('../../swc.config');

const CACHE_DIR = path.join(root, 'node_modules', '.cache', 'dl-ts');
// The inline maps without the sources' text: node maps stack frames from the mappings alone,
// and every module's map stays resident (~7 MB less in a worker).
const hookOptions = { ...swcOptions, inlineSourcesContent: false };

let swc = null;
let cacheSalt = null;
let sourceMapsOn = false;

function transpile(source, filename) {
  swc ??= require('@swc/core');
  return swc.transformSync(source, { ...hookOptions, filename }).code;
}

function salt() {
  if (cacheSalt === null) {
    let version = '';
    try {
      version = require('@swc/core/package.json').version;
    } catch {
      // no version: the options alone key the cache
    }
    cacheSalt = `${version}\n${JSON.stringify(hookOptions)}\n`;
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
    withSourceMaps(true, () => module._compile(useCache ? compileCached(source, filename) : transpile(source, filename), filename));
  };
  // Source maps for this repo's files only. Node parses and keeps the map of every module
  // compiled while maps are enabled, and many packages ship theirs (class-validator, @nestjs/*,
  // rxjs, ...): ~13 MB resident in a worker, for stack frames into packages' sources that are
  // not even installed. Node reads the map when it compiles a module, so a package's files are
  // compiled with maps off; stack traces are still mapped for our files.
  const compileJs = Module._extensions['.js'];
  Module._extensions['.js'] = function compilePackageJs(module, filename) {
    if (!filename.includes(`${path.sep}node_modules${path.sep}`)) return compileJs.call(this, module, filename);
    return withSourceMaps(false, () => compileJs.call(this, module, filename));
  };
  if (process.setSourceMapsEnabled) setSourceMaps(true);
}

/** Runs `fn` (a module's compile and first run) with source maps set to `on`, then restores the previous setting. */
function withSourceMaps(on, fn) {
  if (!process.setSourceMapsEnabled || sourceMapsOn === on) return fn();
  const before = sourceMapsOn;
  setSourceMaps(on);
  try {
    return fn();
  } finally {
    setSourceMaps(before);
  }
}

function setSourceMaps(on) {
  sourceMapsOn = on;
  process.setSourceMapsEnabled(on);
}

module.exports = { compileCached };
