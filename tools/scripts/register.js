// Require hook: runs the TypeScript sources directly (SWC transpiles each file
// once per process, about 1 ms a file) and resolves the @dl/* path aliases.
// Type checking is a separate step: `npm run typecheck`.
const Module = require('node:module');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');
const { swcOptions, resolveAlias } = require('./swc-options');

if (!global.__dlRegistered) {
  global.__dlRegistered = true;
  const originalResolve = Module._resolveFilename;
  Module._resolveFilename = function resolve(request, parent, ...rest) {
    const aliased = request.startsWith('@dl/') ? resolveAlias(request) : null;
    return originalResolve.call(this, aliased ?? request, parent, ...rest);
  };
  Module._extensions['.ts'] = function compile(module, filename) {
    const source = fs.readFileSync(filename, 'utf8');
    const { code } = transformSync(source, { ...swcOptions, filename });
    module._compile(code, filename);
  };
  process.setSourceMapsEnabled?.(true);
}
