import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { clearSessionCookie, setSessionCookie, signedSessionToken } from './session-cookie.js';

async function appFor(isProduction: boolean) {
  const app = Fastify();
  await app.register(fastifyCookie, { secret: 'a-signing-key-for-this-test-only-0123456789' });
  app.get('/set', (_request, reply) => {
    setSessionCookie(reply, 'the-token', { isProduction, maxAgeSeconds: 43_200 });
    return reply.send('ok');
  });
  app.get('/clear', (_request, reply) => {
    clearSessionCookie(reply, isProduction);
    return reply.send('ok');
  });
  app.get('/read', (request, reply) => reply.send(signedSessionToken(request, isProduction) ?? 'none'));
  return app;
}

describe('the session cookie', () => {
  it('is __Host- prefixed and Secure in production, HttpOnly and SameSite=Strict on Path=/ everywhere', async () => {
    const production = await appFor(true);
    const set = String((await production.inject('/set')).headers['set-cookie']);
    expect(set).toMatch(/^__Host-ots_session=the-token\.[^;]+;/);
    for (const attribute of ['Secure', 'HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=43200']) expect(set).toContain(attribute);
    expect(set).not.toMatch(/Domain=/);

    const development = await appFor(false);
    const plain = String((await development.inject('/set')).headers['set-cookie']);
    expect(plain).toMatch(/^ots_session=/);
    expect(plain).not.toContain('Secure');
    expect(plain).toContain('HttpOnly');
    expect(String((await development.inject('/clear')).headers['set-cookie'])).toMatch(/^ots_session=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('is read only when its signature checks out', async () => {
    const app = await appFor(false);
    const cookie = String((await app.inject('/set')).headers['set-cookie']).split(';')[0]!;
    expect((await app.inject({ url: '/read', headers: { cookie } })).body).toBe('the-token');
    expect((await app.inject({ url: '/read', headers: { cookie: 'ots_session=the-token.forged' } })).body).toBe('none');
    expect((await app.inject({ url: '/read', headers: { cookie: 'ots_session=the-token' } })).body).toBe('none');
    // A production cookie is not read by a development service, and the other way round.
    expect((await app.inject({ url: '/read', headers: { cookie: cookie.replace('ots_session', '__Host-ots_session') } })).body).toBe(
      'none',
    );
  });
});
