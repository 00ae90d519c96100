import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schemas';
import { session } from '../auth/session';
import { problemText } from './problem-text';

/** Every route of the API, generated from openapi.json (`npm run client:generate`). */
export type { components, paths, Schemas } from './schemas';

/** The error bodies of the API's families, read loosely: the console shows whatever message it gets. */
export interface ApiProblem {
  status: number;
  code?: string;
  /** What to show: the service's sentence in English, the code's message in the reader's other language (`problemText`). */
  message: string;
  /** The service's own sentence (English), for a log or a bug report. */
  serverMessage?: string;
  /** `field` and `problem`, and the typed fields of the code (`storeId`...) for a domain failure. */
  details?: { field?: string; problem?: string; [typed: string]: unknown }[];
  body?: unknown;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The `error` code of an error body, read from a copy so that the caller still reads the body. */
async function errorCodeOf(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    // The cookie proves who is asking; the CSRF token, which another site cannot read, proves that the console is.
    const csrfToken = session.csrfToken();
    if (csrfToken && !SAFE_METHODS.has(request.method)) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
  async onResponse({ response, request }) {
    // An ended session (idle, signed out elsewhere, deactivated): ask to sign in again and come back here.
    // A refused sign-in is not one. A deactivated person is told that the access was removed, not that it expired.
    const signingIn = request.method === 'POST' && new URL(request.url).pathname === '/api/auth/session';
    if (response.status === 401 && !signingIn)
      session.expire((await errorCodeOf(response)) === 'ACCESS_REMOVED' ? 'access-removed' : 'expired');
    return response;
  },
};

/**
 * The typed client generated from openapi.json; the console talks to the API through it only.
 * The session is the service's HttpOnly cookie, sent with every request to this origin and to
 * no other; no token is kept where a script could read it.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(sessionMiddleware);

/** Turns an openapi-fetch result into its data, or throws an ApiProblem the UI can show. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw toProblem(result.response.status, result.error);
  return result.data as T;
}

export function toProblem(status: number, body: unknown): ApiProblem {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const message =
    (typeof record.message === 'string' && record.message) ||
    (typeof record.error_description === 'string' && record.error_description) ||
    (typeof record.error === 'string' && record.error) ||
    (typeof body === 'string' && body) ||
    `HTTP ${status}`;
  const code = typeof record.code === 'string' ? record.code : typeof record.error === 'string' ? record.error : undefined;
  const details = Array.isArray(record.details) ? (record.details as ApiProblem['details']) : undefined;
  return { status, code, message: problemText({ status, code, message, details }), serverMessage: message, details, body };
}

export function isProblem(value: unknown): value is ApiProblem {
  return typeof value === 'object' && value !== null && 'status' in value && 'message' in value;
}
