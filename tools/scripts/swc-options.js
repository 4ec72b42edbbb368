// One set of SWC options for every way this repo runs TypeScript: the require
// hook (CLI, tools, `npm start`), jest (@swc/jest) and the build. NestJS needs
// legacy decorators with emitted metadata, which esbuild-based runners lack.
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

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

/** Path aliases of tsconfig.base.json, longest prefix first. */
const aliases = [
  [/^@dl\/tools\/db$/, () => path.join(root, 'tools/db/migrate.ts')],
  [/^@dl\/apps\/([^/]+)$/, (m) => path.join(root, 'apps', m[1], 'src/app.ts')],
  [/^@dl\/platform\/([^/]+)$/, (m) => path.join(root, 'libs/platform', m[1], 'src/index.ts')],
  [/^@dl\/([^/]+)$/, (m) => path.join(root, 'libs', m[1], 'src/index.ts')],
];

function resolveAlias(request) {
  for (const [re, to] of aliases) {
    const m = re.exec(request);
    if (m) return to(m);
  }
  return null;
}

module.exports = { root, swcOptions, resolveAlias };
