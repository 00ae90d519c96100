import type { FastifyBodyParser, FastifyRequest } from 'fastify';
import { mayHoldInexactNumbers, parseKeepingIntegers } from '../exact-integers.js';

/** The text each parsed JSON body was decoded to, by its bytes (`request.rawBody`), so that it is decoded once. */
const decodedTexts = new WeakMap<Buffer, string>();

const BYTE_ORDER_MARK_FIRST_BYTE = 0xef;
const NOT_PARSED = Symbol('not parsed');

/**
 * Fastify's JSON body parser (secure-json-parse, which refuses `__proto__` and `constructor`
 * keys) with a shortcut for the common body: a text without `__proto__`, `constructor` or a
 * `\u` escape (the only ways to spell those keys) cannot hold either key, so secure-json-parse
 * would only call JSON.parse on it; that is done here, and the decoded text is kept for
 * `jsonTextOf`. Any other body (empty, with a byte-order mark, suspicious or malformed) goes to
 * Fastify's parser, which answers as before. Either way the exact text of an integer past 2^53 (a
 * marketplace's 19-digit id), and of any number not read as written, is kept beside the parsed value (exact-integers.ts).
 */
export function textKeepingJsonParser(fallback: FastifyBodyParser<Buffer>): FastifyBodyParser<Buffer> {
  return function parseJson(this: unknown, request: FastifyRequest, body: Buffer, done: (error: Error | null, value?: unknown) => void) {
    if (body.length > 0 && body[0] !== BYTE_ORDER_MARK_FIRST_BYTE) {
      const text = body.toString('utf8');
      if (!text.includes('\\u') && !text.includes('__proto__') && !text.includes('constructor')) {
        let value: unknown = NOT_PARSED;
        try {
          value = parseKeepingIntegers(text);
        } catch {
          // Fastify's parser answers the malformed body.
        }
        if (value !== NOT_PARSED) {
          decodedTexts.set(body, text);
          done(null, value);
          return;
        }
      }
    }
    // Fastify's parser checked the body; one with a number a double may not keep as written (an integer past 2^53
    // among them) is read again to keep its exact text.
    const answer = (error: Error | null, value?: unknown) => {
      if (error !== null || !mayHoldInexactNumbers(body.toString('utf8'))) return done(error, value);
      done(null, parseKeepingIntegers(body.toString('utf8').replace(/^\ufeff/, '')));
    };
    return (fallback as (this: unknown, ...args: Parameters<typeof parseJson>) => void).call(this, request, body, answer);
  } as FastifyBodyParser<Buffer>;
}

/** The UTF-8 text of a request body: the one the JSON parser decoded when it kept it, else decoded now. */
export function jsonTextOf(body: Buffer): string {
  return decodedTexts.get(body) ?? body.toString('utf8');
}

/** The text the JSON parser kept for this body, if it did. */
export function keptJsonText(body: Buffer): string | undefined {
  return decodedTexts.get(body);
}
