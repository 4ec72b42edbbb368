import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { getToken, refreshSession } from './session';

/** The contract's error body (decisions §13). */
export interface ApiErrorBody {
  error: string;
  message: string;
  statusCode: number;
  validation?: Record<string, string>;
  retryAfter?: number;
}

/** Thrown by `unwrap` for a non-2xx answer; pages show `message` and `validation` next to fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message || `Request failed (${status})`);
  }
  get validation(): Record<string, string> {
    return this.body.validation ?? {};
  }
}

const auth: Middleware = {
  async onRequest({ request }) {
    const token = getToken() ?? (request.url.includes('/auth/') ? null : await refreshSession());
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
};

/** The one API client: typed from /openapi.json (schema.d.ts), same origin as the api app. */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(auth);

function toApiError(status: number, error: unknown): ApiError {
  if (error && typeof error === 'object' && 'message' in error) return new ApiError(status, error as ApiErrorBody);
  return new ApiError(status, { error: 'Error', message: `Request failed (${status})`, statusCode: status });
}

/** The data of a successful answer, else throws ApiError (react-query shows it). */
export async function unwrap<T>(promise: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await promise;
  } catch {
    throw new ApiError(0, { error: 'Network error', message: 'The server could not be reached. Check your connection.', statusCode: 0 });
  }
  if (!result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as T;
}

/** Authorization header for a plain fetch (binary answers: QR images, exports). */
export async function authHeaders(): Promise<Record<string, string>> {
  const token = getToken() ?? (await refreshSession());
  return token ? { Authorization: `Bearer ${token}` } : {};
}
