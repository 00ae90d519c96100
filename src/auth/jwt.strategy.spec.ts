import { JwtService } from '@nestjs/jwt';
import { jest } from '@jest/globals';
import jsonwebtoken from 'jsonwebtoken';
import { Strategy } from 'passport-jwt';
import type { AppConfig } from '../config/app-config.js';
import type { ApiClientsService } from './api-clients.service.js';
import { JwtStrategy } from './jwt.strategy.js';
import { TokenService } from './token.service.js';

const SECRET = 'unit-test-secret-unit-test-secret-000000';
const config = { jwtSecret: SECRET, jwtTtlSeconds: 3600, jwtIssuer: 'order-tax-service', jwtAudience: 'order-tax-api' } as AppConfig;
const activeClient = { clientId: 'client-1', name: 'Client 1', scopes: ['orders'], stores: [], active: true };
const clients = { current: async () => activeClient } as unknown as ApiClientsService;

type Outcome = { kind: 'success'; user: unknown } | { kind: 'fail'; info: unknown } | { kind: 'error'; error: unknown };

/** Runs passport-jwt's own `authenticate` on a request with this bearer token, as passport would. */
function authenticate(strategy: JwtStrategy, token: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const run = Object.assign(Object.create(strategy) as JwtStrategy & Record<string, unknown>, {
      success: (user: unknown) => resolve({ kind: 'success', user }),
      fail: (info: unknown) => resolve({ kind: 'fail', info }),
      error: (error: unknown) => resolve({ kind: 'error', error }),
    });
    run.authenticate({ headers: { authorization: `Bearer ${token}` } } as never, {});
  });
}

describe('JwtStrategy (passport-jwt with the service’s own token verification)', () => {
  const jwt = new JwtService({ secret: SECRET, signOptions: { algorithm: 'HS256' } });
  let tokens: TokenService;
  let strategy: JwtStrategy;
  beforeEach(() => {
    tokens = new TokenService(jwt, config);
    strategy = new JwtStrategy(config, clients, tokens);
  });

  it('verifies a token’s signature once: the pre-body check’s verification serves the guard too', async () => {
    const { accessToken } = await tokens.issue('client-1', ['orders']);
    // jsonwebtoken's verify is where both @nestjs/jwt and passport-jwt's own verifier check a signature.
    const signatureChecks = jest.spyOn(jsonwebtoken, 'verify');
    tokens.bearerProblem(`Bearer ${accessToken}`, ['orders']);
    const outcome = await authenticate(strategy, accessToken);
    expect(outcome).toMatchObject({ kind: 'success', user: { kind: 'client', clientId: 'client-1', scopes: ['orders'] } });
    await authenticate(strategy, accessToken);
    expect(signatureChecks).toHaveBeenCalledTimes(1);
  });

  it('fails a forged, an expired and a foreign-audience token with jsonwebtoken’s errors, as before', async () => {
    const { accessToken } = await tokens.issue('client-1', ['orders']);
    await authenticate(strategy, accessToken);
    const [header, payload, signature] = accessToken.split('.');
    const forged = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    expect(await authenticate(strategy, forged)).toMatchObject({ kind: 'fail', info: { name: 'JsonWebTokenError' } });

    const claims = { subject: 'client-1', issuer: config.jwtIssuer, audience: config.jwtAudience };
    const expired = jwt.sign({ scope: 'orders', iat: Math.floor(Date.now() / 1000) - 120 }, { ...claims, expiresIn: 60 });
    expect(await authenticate(strategy, expired)).toMatchObject({ kind: 'fail', info: { name: 'TokenExpiredError' } });
    const foreign = jwt.sign({ scope: 'orders' }, { ...claims, audience: 'another-api', expiresIn: 60 });
    expect(await authenticate(strategy, foreign)).toMatchObject({ kind: 'fail', info: { name: 'JsonWebTokenError' } });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect(await authenticate(strategy, none)).toMatchObject({ kind: 'fail', info: { name: 'JsonWebTokenError' } });
  });

  it('leaves passport-jwt’s own verifier to any other strategy', async () => {
    const { accessToken } = await tokens.issue('client-1', ['orders']);
    const verifier = (Strategy as unknown as { JwtVerifier: (...args: unknown[]) => void }).JwtVerifier;
    const verified = await new Promise<unknown>((resolve, reject) =>
      verifier(accessToken, SECRET, { algorithms: ['HS256'] }, (error: unknown, claims: unknown) =>
        error ? reject(error) : resolve(claims),
      ),
    );
    expect(verified).toMatchObject({ sub: 'client-1', scope: 'orders' });
    const refused = await new Promise<unknown>((resolve) =>
      verifier(accessToken, 'another-secret-another-secret-00000000', { algorithms: ['HS256'] }, resolve),
    );
    expect(refused).toMatchObject({ name: 'JsonWebTokenError', message: 'invalid signature' });
  });
});
