import { fastifyCookie } from '@fastify/cookie';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hkdfSync } from 'node:crypto';

/** What the callback must find again: the values sent to the provider, bound to the browser that started. */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Milliseconds since the epoch; the signed copy of Max-Age, which a browser may ignore. */
  expiresAt: number;
}

/** Long enough to sign in at the provider, short enough that a stolen cookie is soon worthless. */
export const FLOW_COOKIE_SECONDS = 600;

/**
 * The sign-in under way, kept in a signed, HttpOnly, SameSite=Lax cookie (Strict would not come
 * back with the provider's cross-site redirect). See "Single sign-on" in docs/api-decisions.md.
 */
export class OidcFlowCookie {
  private readonly signer: { sign(value: string): string; unsign(value: string): { valid: boolean; value: string | null } };
  readonly name: string;

  constructor(
    jwtSecret: string,
    private readonly isProduction: boolean,
  ) {
    // A key of its own: a flow cookie can never pass for anything else signed with JWT_SECRET.
    const key = Buffer.from(hkdfSync('sha256', jwtSecret, 'order-tax-service', 'oidc-flow-cookie', 32));
    this.signer = fastifyCookie.signerFactory(key, 'sha256');
    this.name = isProduction ? '__Host-ots_oidc' : 'ots_oidc';
  }

  /** The Set-Cookie header value carrying `flow`. */
  serialize(flow: OidcFlow): string {
    const value = this.signer.sign(Buffer.from(JSON.stringify(flow)).toString('base64url'));
    return stringifySetCookie({ name: this.name, value, ...this.attributes(), maxAge: FLOW_COOKIE_SECONDS });
  }

  /** The Set-Cookie header value that removes the cookie (a flow is used once). */
  cleared(): string {
    return stringifySetCookie({ name: this.name, value: '', ...this.attributes(), maxAge: 0, expires: new Date(0) });
  }

  /** The request's flow when its signature checks out and it has not expired; undefined otherwise. */
  read(request: FastifyRequest, now = Date.now()): OidcFlow | undefined {
    const header = request.headers.cookie;
    if (!header) return undefined;
    const raw = parseCookie(header)[this.name];
    if (!raw) return undefined;
    const unsigned = this.signer.unsign(raw);
    if (!unsigned.valid || !unsigned.value) return undefined;
    const flow = parseFlow(unsigned.value);
    return flow && flow.expiresAt > now ? flow : undefined;
  }

  set(reply: FastifyReply, value: string): void {
    const current = reply.getHeader('set-cookie');
    const list = current === undefined ? [] : Array.isArray(current) ? current : [String(current)];
    reply.header('set-cookie', [...list, value]);
  }

  private attributes() {
    return { httpOnly: true, sameSite: 'lax' as const, secure: this.isProduction, path: '/' };
  }
}

function parseFlow(encoded: string): OidcFlow | undefined {
  try {
    const value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<OidcFlow>;
    const texts = [value.state, value.nonce, value.codeVerifier].every((part) => typeof part === 'string' && part.length > 0);
    return texts && typeof value.expiresAt === 'number' ? (value as OidcFlow) : undefined;
  } catch {
    return undefined;
  }
}
