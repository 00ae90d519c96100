/**
 * PostgreSQL cannot store every string JavaScript can hold: text and jsonb refuse NUL
 * (U+0000), and jsonb refuses a lone UTF-16 surrogate (`"\ud800"` is valid JSON). Such text
 * is refused at the edge with a 400 naming where it was, instead of a database error.
 */

const NUL = '\u0000';

/** Why a string cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes(NUL)) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) {
    return 'contains a lone UTF-16 surrogate (not a Unicode character), which cannot be stored';
  }
  return undefined;
}

export type JsonBodyProblem = { kind: 'too-deep' } | { kind: 'unstorable'; path: string; reason: string };

/** `\u` in JSON text: the only way a JSON text decoded from UTF-8 can hold a NUL or a lone surrogate. */
const UNICODE_ESCAPE = Buffer.from('\\u', 'latin1');

/**
 * What makes a parsed JSON body unacceptable, in one iterative walk (safe on any depth):
 * nesting deeper than `depthLimit`, or a key or a string PostgreSQL cannot store. The walk
 * builds no paths (it runs on every body); the path of a bad string is found afterwards.
 *
 * `text`, the bytes the value was parsed from, spares looking at every string when it holds no
 * `\u` escape: JSON forbids a raw NUL in a string, and UTF-8 decoding never yields a lone
 * surrogate (a malformed byte becomes U+FFFD), so only an escape can write either.
 */
export function jsonBodyProblem(value: unknown, depthLimit: number, text?: Buffer | string): JsonBodyProblem | undefined {
  if (
    text !== undefined &&
    typeof value === 'object' &&
    value !== null &&
    !(typeof text === 'string' ? text.includes('\\u') : text.includes(UNICODE_ESCAPE))
  ) {
    return nestsDeeper(value, depthLimit) ? { kind: 'too-deep' } : undefined;
  }
  if (typeof value === 'string') {
    const reason = unstorableText(value);
    return reason ? { kind: 'unstorable', path: 'body', reason } : undefined;
  }
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > depthLimit) return { kind: 'too-deep' };
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of entries) {
      if ((typeof key === 'string' && unstorableText(key)) || (typeof child === 'string' && unstorableText(child))) {
        return firstUnstorable(value);
      }
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Whether `value` holds a JSON object or array more than `remaining` levels down (itself at the first); recursion as deep as `remaining` at most. */
function nestsDeeper(value: object, remaining: number): boolean {
  if (remaining === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value as unknown[])
      if (typeof child === 'object' && child !== null && nestsDeeper(child, remaining - 1)) return true;
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && nestsDeeper(child, remaining - 1)) return true;
  }
  return false;
}

/** The path and reason of the first key or string that cannot be stored (only called when there is one). */
function firstUnstorable(value: unknown): JsonBodyProblem | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of entries) {
      const childPath = typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
      const keyReason = typeof key === 'string' ? unstorableText(key) : undefined;
      if (keyReason) return { kind: 'unstorable', path: childPath, reason: `has a property name that ${keyReason}` };
      const reason = typeof child === 'string' ? unstorableText(child) : undefined;
      if (reason) return { kind: 'unstorable', path: childPath, reason };
      if (typeof child === 'object' && child !== null) stack.push([child, childPath]);
    }
  }
  return undefined;
}

/** Whether a parsed JSON value nests deeper than `limit`. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return jsonBodyProblem(value, limit)?.kind === 'too-deep';
}

/**
 * The first problem of a request target: percent-encoding that is not UTF-8 (an encoded
 * surrogate such as `%ED%A0%80` would otherwise be decoded silently to U+FFFD), or a
 * decoded NUL, in the path or in a query parameter (named by its key).
 */
export function requestTargetProblem(url: string): { field: string; reason: string } | undefined {
  // Without percent-encoding each decoded part is a piece of the target, cut at ASCII separators.
  if (!url.includes('%') && unstorableText(url) === undefined) return undefined;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const pathProblem = decodedProblem(path);
  if (pathProblem) return { field: 'path', reason: pathProblem };
  if (queryStart === -1) return undefined;
  for (const pair of url.slice(queryStart + 1).split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawKey = separator === -1 ? pair : pair.slice(0, separator);
    const keyProblem = decodedProblem(rawKey);
    const field = `query parameter ${keyProblem ? JSON.stringify(rawKey) : safeDecode(rawKey)}`;
    if (keyProblem) return { field, reason: keyProblem };
    if (separator === -1) continue;
    const valueProblem = decodedProblem(pair.slice(separator + 1));
    if (valueProblem) return { field, reason: valueProblem };
  }
  return undefined;
}

function decodedProblem(encoded: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded.replaceAll('+', ' '));
  } catch {
    return 'is not valid UTF-8 percent-encoding';
  }
  return unstorableText(decoded);
}

function safeDecode(encoded: string): string {
  return JSON.stringify(decodeURIComponent(encoded.replaceAll('+', ' ')));
}
