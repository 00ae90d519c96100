import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent, request } from 'undici';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** The receiver's answer body is kept up to this many bytes and not read further. */
export const RESPONSE_EXCERPT_BYTES = 4096;

export type DeliveryOutcome = 'delivered' | 'rejected' | 'timeout' | 'unreachable';

export interface WebhookAnswer {
  outcome: DeliveryOutcome;
  /** The receiver's status code; null when no answer came. */
  statusCode: number | null;
  /** The first 4 KiB of the answer body (cut on a UTF-8 character boundary). */
  body: string | null;
  durationMs: number;
  error: string | null;
  /** The raw Retry-After header of a failed answer. */
  retryAfter: string | null;
}

/**
 * POSTs webhook messages over a pooled keep-alive connection set (undici), with one hard
 * timeout covering connection, request, headers and the (bounded) body read. Redirects
 * are not followed: a 3xx is an answer like any other non-2xx. A 2xx whose body does not
 * arrive whole is still a delivery (without its excerpt).
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timeoutMs = config.orderWebhookTimeoutMs;
    this.agent = new Agent({
      connections: 128,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: this.timeoutMs },
    });
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAnswer> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    let statusCode: number | null = null;
    let retryAfter: string | null = null;
    try {
      const response = await request(url, { dispatcher: this.agent, method: 'POST', headers, body, signal: controller.signal });
      statusCode = response.statusCode;
      const header = response.headers['retry-after'];
      retryAfter = (Array.isArray(header) ? header[0] : header) ?? null;
      const excerpt = await readExcerpt(response.body);
      const delivered = statusCode >= 200 && statusCode < 300;
      return {
        outcome: delivered ? 'delivered' : 'rejected',
        statusCode,
        body: excerpt,
        durationMs: elapsed(),
        error: delivered ? null : `the receiver answered ${statusCode}`,
        retryAfter: delivered ? null : retryAfter,
      };
    } catch (error) {
      // A 2xx status line is the receiver's acceptance: only the excerpt of its body was lost (it stalled or was cut).
      // Counting it as a failure would promise a retry that the retry worker, seeing the 2xx, never sends.
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
        return { outcome: 'delivered', statusCode, body: null, durationMs: elapsed(), error: null, retryAfter: null };
      }
      const timeout = timedOut || isTimeoutError(error);
      return {
        outcome: timeout ? 'timeout' : 'unreachable',
        statusCode,
        body: null,
        durationMs: elapsed(),
        error: timeout ? `no complete answer within ${this.timeoutMs} ms` : describeNetworkError(error),
        retryAfter,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

/** Reads at most RESPONSE_EXCERPT_BYTES of the body; leaving the loop early destroys the rest (and that connection). */
async function readExcerpt(stream: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) break;
  }
  return excerptText(Buffer.concat(chunks));
}

/** At most RESPONSE_EXCERPT_BYTES of UTF-8, never half a character, without NUL (which PostgreSQL text refuses). */
export function excerptText(bytes: Buffer): string {
  let end = Math.min(bytes.length, RESPONSE_EXCERPT_BYTES);
  if (end < bytes.length) {
    // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  }
  return bytes.subarray(0, end).toString('utf8').replaceAll('\u0000', '\uFFFD');
}

function isTimeoutError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`, `ENOTFOUND: getaddrinfo ENOTFOUND hooks.example`. */
function describeNetworkError(error: unknown): string {
  const found = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const source = found.cause && typeof found.cause === 'object' ? found.cause : found;
  const code = typeof source.code === 'string' ? source.code : typeof found.code === 'string' ? found.code : undefined;
  const message = typeof source.message === 'string' ? source.message : String(found.message ?? error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
