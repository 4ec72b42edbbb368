#!/usr/bin/env node
// The image's HEALTHCHECK: healthy when the app in this container answers GET /health
// with 200. One app runs per container, on its *_PORT; the first of them that answers wins.
const ports = [
  process.env.API_PORT ?? 3000,
  process.env.REDIRECT_PORT ?? 3001,
  process.env.INGEST_PORT ?? 3002,
  process.env.WORKER_PORT ?? 3003,
];

async function healthy(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2500) });
    return res.status === 200;
  } catch {
    return false;
  }
}

Promise.all(ports.map(healthy)).then((answers) => process.exit(answers.some(Boolean) ? 0 : 1));
