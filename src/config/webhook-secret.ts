import { createSecretKey, type KeyObject } from 'node:crypto';

/** The order webhook's signing secret, as configured: its format is checked at start, its key used by the sender. */

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC key: a `whsec_<base64>` secret is the base64 of the key (as the spec defines); any other text is its UTF-8 bytes.
 * A KeyObject, made once: on Node 24 `createHmac` spends as long checking a Buffer key as hashing a 10 KB payload.
 */
export function signingKey(secret: string): KeyObject {
  const bytes = secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
  return createSecretKey(bytes);
}

/** Why a `whsec_` secret is unusable, or undefined when it is fine (the spec's keys are 24 to 64 bytes of base64). */
export function whsecProblem(secret: string): string | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return 'a whsec_ secret must be followed by base64';
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < 24 || bytes > 64) return `a whsec_ secret must encode 24 to 64 bytes (this one has ${bytes})`;
  return undefined;
}
