import type { FastifyRequest } from 'fastify';
import { FLOW_COOKIE_SECONDS, type OidcFlow, OidcFlowCookie } from './oidc-flow-cookie.js';

const SECRET = 'a-signing-secret-of-at-least-32-characters';
const NOW = 1_800_000_000_000;
const flow: OidcFlow = { state: 'the-state', nonce: 'the-nonce', codeVerifier: 'the-verifier', expiresAt: NOW + 60_000 };

/** A request carrying the cookie of a Set-Cookie header value. */
function requestWith(setCookie: string): FastifyRequest {
  return { headers: { cookie: setCookie.split(';')[0] } } as FastifyRequest;
}

describe('the sign-in flow cookie', () => {
  const cookies = new OidcFlowCookie(SECRET, false);

  it('gives back the flow it was made with', () => {
    expect(cookies.read(requestWith(cookies.serialize(flow)), NOW)).toEqual(flow);
  });

  it('is HttpOnly, SameSite=Lax (it must come back with the provider’s redirect) and short-lived', () => {
    const header = cookies.serialize(flow);
    expect(header).toMatch(/^ots_oidc=/);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).toContain(`Max-Age=${FLOW_COOKIE_SECONDS}`);
    expect(header).not.toContain('Secure');
  });

  it('is __Host- prefixed and Secure in production', () => {
    const header = new OidcFlowCookie(SECRET, true).serialize(flow);
    expect(header).toMatch(/^__Host-ots_oidc=/);
    expect(header).toContain('Secure');
    expect(header).toContain('Path=/');
  });

  it('is refused once expired, whatever the browser kept', () => {
    expect(cookies.read(requestWith(cookies.serialize(flow)), flow.expiresAt)).toBeUndefined();
  });

  it('is refused when signed with another key or changed', () => {
    expect(cookies.read(requestWith(new OidcFlowCookie(`${SECRET}-other`, false).serialize(flow)), NOW)).toBeUndefined();
    const header = cookies.serialize(flow);
    const [value, signature] = header.split(';')[0]!.slice('ots_oidc='.length).split('.');
    const changed = Buffer.from(JSON.stringify({ ...flow, state: 'another-state' })).toString('base64url');
    expect(value).not.toBe(changed);
    expect(cookies.read({ headers: { cookie: `ots_oidc=${changed}.${signature}` } } as FastifyRequest, NOW)).toBeUndefined();
  });

  it('is cleared with an expired, empty cookie of the same name and path', () => {
    expect(cookies.cleared()).toMatch(/^ots_oidc=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/);
  });
});
