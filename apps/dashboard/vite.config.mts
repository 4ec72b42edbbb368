import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));

// Served by the api app at /app (apps/api/src/dashboard/static.ts): hashed files under
// /app/assets are cached for a year, index.html is never cached.
export default defineConfig({
  root,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    // `npx vite --config apps/dashboard/vite.config.ts` during development, with `npm start` running.
    proxy: { '/api': 'http://127.0.0.1:3000', '/auth': 'http://127.0.0.1:3000', '/openapi.json': 'http://127.0.0.1:3000' },
  },
});
