import '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';

/** The session cookie's name: `__Host-` (HTTPS only, this host only, Path=/) in production. */
export function sessionCookieName(isProduction: boolean): string {
  return isProduction ? '__Host-ots_session' : 'ots_session';
}

/** A new random token (a session id, a CSRF token, a link token): 256 bits, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: a copy of the table opens nothing. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The session token of the request's cookie when its signature (@fastify/cookie, keyed from
 * JWT_SECRET) checks out; undefined without one. The signature lets the check made before a body
 * is read refuse forged cookies without a database read.
 */
export function signedSessionToken(request: FastifyRequest, isProduction: boolean): string | undefined {
  const raw = request.cookies?.[sessionCookieName(isProduction)];
  if (!raw || typeof request.unsignCookie !== 'function') return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

/** Whether the request carries a cookie named like the session's (signed or not). */
export function hasSessionCookie(request: FastifyRequest, isProduction: boolean): boolean {
  return Boolean(request.cookies?.[sessionCookieName(isProduction)]);
}

export function setSessionCookie(reply: FastifyReply, token: string, options: { isProduction: boolean; maxAgeSeconds: number }): void {
  reply.setCookie(sessionCookieName(options.isProduction), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: options.isProduction,
    path: '/',
    signed: true,
    maxAge: options.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, isProduction: boolean): void {
  reply.clearCookie(sessionCookieName(isProduction), { httpOnly: true, sameSite: 'strict', secure: isProduction, path: '/' });
}
