import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../clients/typescript/src/schema.js';

/** The typed client of the committed OpenAPI document (clients/typescript): the compiler checks every field a test sends or reads. */
export type Api = Client<paths>;
export type Schemas = components['schemas'];
/** The error bodies of the admin API, of the point-of-sale routes and of the OAuth routes. */
export type ErrorBody = Schemas['ErrorResponseDto'];
export type PosErrorBody = Schemas['FulfillmentErrorResponseDto'];
export type OAuthErrorBody = Schemas['OAuthErrorResponseDto'];
/** A point-of-sale answer read raw (real devices' requests, sent as they come): the success or the error fields. */
export type PosAnswer = Partial<Schemas['FulfillmentResponseDto']> & Partial<PosErrorBody>;
/** The query parameters of a GET route, as the document declares them. */
export type QueryOf<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Query } } }
  ? NonNullable<Query>
  : never;

/**
 * A typed client on `origin` (the service address without `/api`: the document's paths carry it). `token`, or the
 * function that gives it, is sent as the bearer unless a request sets its own `authorization` header.
 */
export function typedClient(origin: string, token?: string | (() => Promise<string>)): Api {
  const client = createClient<paths>({ baseUrl: origin });
  if (token !== undefined)
    client.use({
      async onRequest({ request }) {
        if (!request.headers.has('authorization'))
          request.headers.set('authorization', `Bearer ${typeof token === 'string' ? token : await token()}`);
        return request;
      },
    });
  return client;
}

interface TypedResult<Data, Failure> {
  data?: Data;
  error?: Failure;
  response: Response;
}

function summary(result: TypedResult<unknown, unknown>): string {
  return `${result.response.status} ${JSON.stringify(result.error ?? result.data)}`;
}

/** The answer's body when it has `status` (any 2xx without it); otherwise the test fails with the status and body. */
export function ok<Data, Failure>(result: TypedResult<Data, Failure>, status?: number): Data {
  const expected = status === undefined ? result.response.ok : result.response.status === status;
  if (!expected || result.error !== undefined) throw new Error(`expected ${status ?? '2xx'}, got ${summary(result)}`);
  return result.data as Data;
}

/** The error body of an answer with `status`; otherwise the test fails with the status and body. */
export function failed<Data, Failure>(result: TypedResult<Data, Failure>, status: number): Failure {
  if (result.response.status !== status) throw new Error(`expected ${status}, got ${summary(result)}`);
  return result.error as Failure;
}

/** A point-of-sale domain failure: the sentence in `error` and `message`, its code and typed details. */
export type PosDomainErrorBody = PosErrorBody & { code?: string; details?: Array<Record<string, unknown>> };

/** A refused point-of-sale call as status and body, as `expectDeclaredError` reads it; fails unless the status is `status`. */
export function refusedPos<Data, Failure>(
  result: TypedResult<Data, Failure>,
  status: number,
): { status: number; body: PosDomainErrorBody } {
  return { status, body: failed(result, status) as PosDomainErrorBody };
}
