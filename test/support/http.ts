export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Raw body: sent as is (no JSON encoding). */
  raw?: string | Buffer;
  query?: Record<string, string | number | boolean | undefined>;
}

/** A small HTTP client over real sockets (the tests talk to a listening server, as integrators do). */
export class HttpClient {
  constructor(readonly baseUrl: string) {}

  get<T = unknown>(path: string, options: RequestOptions = {}) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, body, options);
  }
  delete<T = unknown>(path: string, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, undefined, options);
  }

  async request<T = unknown>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}

/** The development client that a service started without `BOOTSTRAP_CLIENT_*` creates, as `npm start` does. */
export const DEVELOPMENT_CLIENT = { id: '1001', secret: 'dev-secret-change-me' } as const;

/** A bearer token of the development client, from the service `http` talks to; fails the test when the login fails. */
export function developmentClientToken(http: HttpClient): Promise<string> {
  return clientToken(http, DEVELOPMENT_CLIENT.id, DEVELOPMENT_CLIENT.secret);
}

/** A bearer token of an API client by the login route, as its point of sale gets one; fails the test when the login fails. */
export async function clientToken(http: HttpClient, clientId: string, secret: string): Promise<string> {
  const response = await http.post<{ accessToken?: string }>('/authentication/login', {
    client_id: clientId,
    client_secret: secret,
    grant_type: 'client_credentials',
  });
  if (response.status !== 200 || !response.body.accessToken) {
    throw new Error(`the login of client ${clientId} answered ${response.status}: ${response.text}`);
  }
  return response.body.accessToken;
}
