// One set of SWC options and path aliases for every way this repo runs TypeScript: the
// require hook (tools/scripts/register.js: CLI, tools, `npm start`, the container) and jest
// (jest.preset.js). NestJS needs legacy decorators with emitted metadata, which esbuild-based
// runners lack. A root file because both the runtime and the test runner own it equally.
const path = require('node:path');

const root = __dirname;

/** @type {import('@swc/core').Options} */
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', strictMode: true, noInterop: false },
  sourceMaps: 'inline',
  swcrc: false,
};

/** Path aliases of tsconfig.base.json, most specific first: [pattern, target with $1]. */
const aliases = [
  ['^@dl/apps/([^/]+)$', 'apps/$1/src/app.ts'],
  ['^@dl/platform/([^/]+)$', 'libs/platform/$1/src/index.ts'],
  ['^@dl/([^/]+)$', 'libs/$1/src/index.ts'],
].map(([pattern, target]) => [new RegExp(pattern), path.join(root, target)]);

function resolveAlias(request) {
  for (const [re, to] of aliases) {
    const m = re.exec(request);
    if (m) return to.replace('$1', m[1]);
  }
  return null;
}

/** The same aliases as jest's moduleNameMapper (insertion order is match order). */
const jestModuleNameMapper = Object.fromEntries(aliases.map(([re, to]) => [re.source, to]));

module.exports = { root, swcOptions, resolveAlias, jestModuleNameMapper };
