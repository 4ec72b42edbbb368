import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { withTimeout } from '@dl/platform/async';

/** Work an app does after HTTP stopped and before its modules (pools, queues) close, e.g. the worker handing back its jobs. */
export type Drain = () => Promise<void>;

/** How long idle keep-alive connections stay open after the listener closed, for requests already on their way. */
export const KEEP_ALIVE_GRACE_MS = 300;

const drains = new WeakMap<NestFastifyApplication, Drain[]>();
const logger = new Logger('Shutdown');

/** Adds work to run, in order, once HTTP is drained and before the app's modules are destroyed. */
export function onDrain(app: NestFastifyApplication, drain: Drain): void {
  drains.get(app)?.push(drain);
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Stops accepting connections and answers what is in flight: from now on every answer carries
 * `Connection: close` (Node closes the socket after it), idle keep-alive connections are closed
 * after a short grace (a request already sent on one is still answered), and the server is
 * closed once every connection ended, or forcibly after `timeoutMs`.
 */
async function drainHttp(server: Server, sockets: Set<Socket>, timeoutMs: number): Promise<void> {
  if (!server.listening) return;
  // Requests parsed from now on (routes on the bare request event included: this listener runs first)...
  server.prependListener('request', (_req, res) => {
    res.shouldKeepAlive = false;
  });
  // ...and answers being prepared now.
  for (const socket of sockets) {
    const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (res && !res.headersSent) res.shouldKeepAlive = false;
  }
  const closed = new Promise<void>((resolve) => {
    // net.Server#close: stop listening, call back once every connection ended (http.Server#close would also drop idle keep-alive connections at once).
    NetServer.prototype.close.call(server, () => resolve());
  });
  await wait(KEEP_ALIVE_GRACE_MS);
  server.closeIdleConnections();
  const timer = setInterval(() => server.closeIdleConnections(), 100);
  timer.unref();
  try {
    // withTimeout clears its timer once the server closed: a pending one would keep the closed app reachable.
    await withTimeout(closed, timeoutMs).catch(() => {
      logger.warn({ timeoutMs }, 'connections still open at the shutdown deadline: closing them');
      server.closeAllConnections();
    });
  } finally {
    clearInterval(timer);
  }
}

/**
 * Makes `app.close()` graceful in the right order (Nest's own order ends pools in module destroy
 * hooks while HTTP still serves and BullMQ workers still run): (1) stop accepting and answer what
 * is in flight, keep-alive connections closed after their current answer; (2) the app's drains
 * (`onDrain`: the worker hands back its jobs); (3) Nest's close (click buffer flushed, queues and
 * pools closed). Idempotent: a second call waits for the first.
 */
export function makeCloseGraceful(app: NestFastifyApplication, timeoutMs: number): void {
  drains.set(app, []);
  const server = app.getHttpServer() as Server;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Nest's own close, from the prototype: through the app (a Proxy) `app.close` would find the graceful one defined below.
  const close = (Object.getPrototypeOf(app) as NestFastifyApplication).close.bind(app);
  let closed: Promise<void> | null = null;
  const graceful = () => {
    closed ??= (async () => {
      await drainHttp(server, sockets, timeoutMs);
      for (const drain of drains.get(app) ?? []) {
        try {
          await drain();
        } catch (err) {
          logger.error({ err }, 'drain failed');
        }
      }
      await close();
    })();
    return closed;
  };
  // Nest's app is a Proxy whose `set` trap ignores assignments: define the property instead.
  Object.defineProperty(app, 'close', { value: graceful, configurable: true, writable: true });
}

/**
 * Production entries: on SIGTERM or SIGINT close the app gracefully (`makeCloseGraceful`) and
 * exit 0; if that takes longer than `timeoutMs`, exit 1 anyway. A second signal exits at once.
 */
export function exitOnSignals(app: NestFastifyApplication, name: string, timeoutMs: number): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(1);
    }
    stopping = true;
    logger.log({ signal, app: name }, 'shutting down');
    const forced = setTimeout(() => {
      logger.error({ timeoutMs }, 'graceful shutdown timed out: exiting');
      process.exit(1);
    }, timeoutMs + 2_000);
    forced.unref();
    app.close().then(
      () => {
        logger.log({ app: name }, 'shut down');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
