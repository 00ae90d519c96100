import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Schemas } from './api.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  raw: Buffer;
  body: string;
  /** Date.now() when the request was complete. */
  at: number;
}

/** What the service forwards to the webhook: the enriched order, as the API documents it. */
export type ForwardedPayload = Schemas['EnrichedOrderPayloadDto'];

/** The body of a forward the receiver got, read as the documented payload. */
export function forwardedPayload(request: Pick<ReceivedRequest, 'body'>): ForwardedPayload {
  return JSON.parse(request.body) as ForwardedPayload;
}

export type Responder = (request: ReceivedRequest, response: ServerResponse) => void;

/** Answers with a status, a body and headers. */
export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Responder =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/plain', ...headers });
    response.end(body);
  };

/** Never answers (the socket is destroyed when the receiver closes). */
export const hang: Responder = () => undefined;

/** Holds its request's answer until the test writes it: `arrived` gives the response to answer (a receiver that is slow on cue). */
export function heldAnswer(): { responder: Responder; arrived: Promise<ServerResponse> } {
  let hand!: (response: ServerResponse) => void;
  const arrived = new Promise<ServerResponse>((resolve) => (hand = resolve));
  return { responder: (_request, response) => hand(response), arrived };
}

/**
 * A real HTTP receiver on 127.0.0.1 standing in for the restaurant's order webhook. It
 * records every request and answers with the queued responders in turn, then with the fallback.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  fallback: Responder = answer(200, 'ok');
  private readonly queue: Responder[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly waiters: Array<() => void> = [];

  private readonly server: Server;
  private address = '';

  private constructor(private readonly path: string) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const received: ReceivedRequest = {
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          raw,
          body: raw.toString('utf8'),
          at: Date.now(),
        };
        this.requests.push(received);
        (this.queue.shift() ?? this.fallback)(received, response);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static async start(path = '/hooks/orders'): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(path);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.server.address() as { port: number };
    receiver.address = `http://127.0.0.1:${port}`;
    return receiver;
  }

  /** The webhook URL to configure (ORDER_WEBHOOK_URL). */
  get url(): string {
    return `${this.address}${this.path}`;
  }

  /** The next requests get these answers, in order. */
  respondWith(...responders: Responder[]): this {
    this.queue.push(...responders);
    return this;
  }

  /** Forgets the recorded requests and queued answers; the fallback is 200 again. */
  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.fallback = answer(200, 'ok');
  }

  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  async waitForRequests(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the receiver got ${this.requests.length} request(s), expected ${count}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A URL on 127.0.0.1 where nothing listens (connections are refused). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks/orders`;
}

/**
 * Standard Webhooks verification as a receiver writes it (the README's snippet), independent of
 * the service's own signing code: HMAC-SHA256 of "id.timestamp.body" with the decoded key.
 */
export function verifySignature(secret: string, headers: IncomingHttpHeaders, body: Buffer): boolean {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key)
    .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.`)
    .update(body)
    .digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const [version, value] = entry.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
