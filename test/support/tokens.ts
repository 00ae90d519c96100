import { createHmac } from 'node:crypto';
import { TEST_JWT_SECRET } from './test-app.js';

/** A JWT signed by hand, to forge expired, wrongly signed or `alg: none` tokens. */
export function forgeJwt(claims: Record<string, unknown>, options: { secret?: string; alg?: string } = {}): string {
  const alg = options.alg ?? 'HS256';
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const head = `${encode({ alg, typ: 'JWT' })}.${encode(claims)}`;
  if (alg === 'none') return `${head}.`;
  return `${head}.${createHmac('sha256', options.secret ?? TEST_JWT_SECRET)
    .update(head)
    .digest('base64url')}`;
}
