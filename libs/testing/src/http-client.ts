import request from 'supertest';
import { authHeader } from './identity';

/** Requests to the app at `url` as the holder of `token` (a JWT or an API key), with `headers` on each. */
export function clientAs(url: string, token: string, headers: Record<string, string> = {}) {
  const as = (test: request.Test) => test.set(authHeader(token)).set(headers);
  return {
    get: (path: string) => as(request(url).get(path)),
    post: (path: string, body?: object) => as(request(url).post(path)).send(body),
    put: (path: string, body?: object) => as(request(url).put(path)).send(body),
    patch: (path: string, body?: object) => as(request(url).patch(path)).send(body),
    delete: (path: string) => as(request(url).delete(path)),
  };
}
