import type { Mock } from 'vitest';
import type { Schemas } from '../api/client';

type SessionDto = Schemas['SessionDto'];

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

type Answer = Response | ((request: Request) => Response | Promise<Response>);

/**
 * Answers the stubbed `fetch` by "METHOD /path" (the query string left out); anything else is a
 * 404, so that a call the test did not expect shows in its assertions.
 */
export function answer(fetchMock: Mock<typeof fetch>, routes: Record<string, Answer>): void {
  fetchMock.mockImplementation(async (input) => {
    const request = input as Request;
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (!route) return json(404, { error: 'NOT_FOUND', message: `no stub for ${request.method} ${request.url}` });
    return typeof route === 'function' ? route(request) : route.clone();
  });
}

/** The requests the stub received, as "METHOD /path?query". */
export function requestsOf(fetchMock: Mock<typeof fetch>): Request[] {
  return fetchMock.mock.calls.map((call) => call[0] as Request);
}

export function sessionDto(role: SessionDto['user']['role'] = 'admin', overrides: Partial<SessionDto['user']> = {}): SessionDto {
  return {
    user: { id: 'u-1', email: 'ana@example.com', name: 'Ana Souza', role, ...overrides },
    csrfToken: 'csrf-1',
    idleExpiresAt: '2026-11-26T10:30:00.000Z',
    expiresAt: '2026-11-26T22:00:00.000Z',
  };
}
