import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { arrivalSchedule, openLoad, readAnswer } from './open-load';

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    handler(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const redirect = (_req: IncomingMessage, res: ServerResponse) => res.writeHead(302, { location: 'https://example.com/' }).end();

describe('readAnswer', () => {
  const answer = (text: string) => readAnswer(Buffer.from(text, 'latin1'));

  it('frames an answer by its content-length, and waits for the rest of it', () => {
    const text = 'HTTP/1.1 302 Found\r\nLocation: /x\r\nContent-Length: 3\r\n\r\nabc';
    expect(answer(text)).toEqual({ length: text.length, status: 302, close: false });
    expect(answer(text.slice(0, -1))).toBeNull();
    expect(answer(text.slice(0, 20))).toBeNull();
    expect(answer(`${text}HTTP/1.1 200 OK\r\n`)).toEqual({ length: text.length, status: 302, close: false });
  });

  it('frames a chunked answer at its last chunk', () => {
    const text = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n';
    expect(answer(text)).toEqual({ length: text.length, status: 200, close: false });
    expect(answer(text.slice(0, -2))).toBeNull();
  });

  it('reads Connection: close, an empty 204, and refuses an answer it cannot frame', () => {
    expect(answer('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')).toMatchObject({ status: 400, close: true });
    expect(answer('HTTP/1.1 204 No Content\r\n\r\n')).toEqual({ length: 27, status: 204, close: false });
    expect(() => answer('HTTP/1.0 200 OK\r\n\r\nbody until close')).toThrow(/cannot frame/);
  });
});

describe('arrivalSchedule', () => {
  it('spaces uniform arrivals exactly and Poisson arrivals at the mean rate, the same way every time', () => {
    const uniform = arrivalSchedule(1000, 2, 'uniform');
    expect(uniform).toHaveLength(2000);
    expect(uniform[1] - uniform[0]).toBeCloseTo(1, 9);
    expect(uniform[1999]).toBeCloseTo(1999, 6);
    const poisson = arrivalSchedule(1000, 20);
    expect(poisson).toHaveLength(20_000);
    expect(poisson[19_999] / 19_999).toBeGreaterThan(0.97);
    expect(poisson[19_999] / 19_999).toBeLessThan(1.03);
    expect(arrivalSchedule(1000, 20)).toEqual(poisson);
  });
});

describe('openLoad', () => {
  it('sends every scheduled request once and counts the answers', async () => {
    const { url, server, seen } = await serve((req, res) => (req.url === '/missing' ? res.writeHead(404).end('no') : redirect(req, res)));
    try {
      const paths = ['/a', '/b', '/missing', '/c'];
      const result = await openLoad({ url, rate: 400, seconds: 1, arrivals: 'uniform', ok: (s) => s === 302, request: (i) => ({ method: 'GET', path: paths[i % 4], headers: {} }) });
      expect(result).toMatchObject({ sent: 400, ok: 300, notOk: 100, errors: 0 });
      expect(seen).toHaveLength(400);
      expect(paths.map((p) => seen.filter((s) => s === p).length)).toEqual([100, 100, 100, 100]);
      expect(result.latency.p50).toBeGreaterThan(0);
    } finally {
      await close(server);
    }
  });

  it('counts the answers a dropped connection never gave as errors, and ends by its deadline', async () => {
    const { url, server } = await serve((req, res) => (req.url === '/drop' ? req.socket.destroy() : req.url === '/hang' ? undefined : redirect(req, res)));
    try {
      const paths = ['/ok', '/drop', '/hang', '/ok'];
      const result = await openLoad({ url, rate: 40, seconds: 0.5, arrivals: 'uniform', drainMs: 300, ok: (s) => s === 302, request: (i) => ({ method: 'GET', path: paths[i % 4], headers: {} }) });
      expect(result.sent).toBe(20);
      // The dropped and the unanswered ones (5 each) are errors; an /ok may arrive on a closing socket.
      expect(result.ok + result.notOk + result.errors).toBe(20);
      expect(result.notOk).toBe(0);
      expect(result.errors).toBeGreaterThanOrEqual(10);
      expect(result.ok).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await close(server);
    }
  });
});
