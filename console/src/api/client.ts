import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../clients/typescript/src/schema';
import { session } from '../auth/session';

export type { components, paths };
export type Schemas = components['schemas'];

/** The error bodies of the API's families, read loosely: the console shows whatever message it gets. */
export interface ApiProblem {
  status: number;
  code?: string;
  message: string;
  /** `field` and `problem`, and the typed fields of the code (`storeId`...) for a domain failure. */
  details?: { field?: string; problem?: string; [typed: string]: unknown }[];
  body?: unknown;
}

const authMiddleware: Middleware = {
  onRequest({ request }) {
    const token = session.token();
    if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ response, request }) {
    // An expired or revoked token: ask the user to sign in again and bring them back here.
    if (response.status === 401 && !request.url.includes('/api/domain-cliente/token')) session.expire();
    return response;
  },
};

/** The typed client generated from openapi.json; the console talks to the API through it only. */
// No cookies are used; and with credentials omitted, a 401 carrying `WWW-Authenticate: Basic`
// (a wrong secret at the token endpoint) is handed to the app instead of opening the browser's
// own sign-in dialog (Fetch standard, HTTP-network-or-cache fetch).
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'omit' });
api.use(authMiddleware);

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
  return { status, code, message, details, body };
}

export function isProblem(value: unknown): value is ApiProblem {
  return typeof value === 'object' && value !== null && 'status' in value && 'message' in value;
}
