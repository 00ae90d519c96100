import { JwtService } from '@nestjs/jwt';
import type { AppConfig } from '../config/app-config.js';
import { TokenService } from './token.service.js';

const SECRET = 'unit-test-secret-unit-test-secret-000000';
const config = { jwtSecret: SECRET, jwtTtlSeconds: 3600, jwtIssuer: 'order-tax-service', jwtAudience: 'order-tax-api' } as AppConfig;

describe('TokenService.verify (verified tokens kept until they expire)', () => {
  const jwt = new JwtService({ secret: SECRET, signOptions: { algorithm: 'HS256' } });
  let tokens: TokenService;
  beforeEach(() => {
    tokens = new TokenService(jwt, config);
  });

  it('refuses a kept token once it has expired, as jsonwebtoken does', async () => {
    const { accessToken } = await tokens.issue('client-1', ['orders']);
    const { exp } = tokens.verify(accessToken) as { exp: number };
    // Kept, and still good in the last millisecond before exp...
    expect(tokens.verify(accessToken, exp * 1000 - 1)).toMatchObject({ sub: 'client-1', scope: 'orders' });
    // ...expired from exp on: the same error as for a token never seen before, also afterwards.
    expect(() => tokens.verify(accessToken, exp * 1000)).toThrow(expect.objectContaining({ name: 'TokenExpiredError' }));
    expect(() => tokens.verify(accessToken, exp * 1000 + 5000)).toThrow(expect.objectContaining({ name: 'TokenExpiredError' }));
    const unseen = new TokenService(jwt, config);
    expect(() => unseen.verify(accessToken, exp * 1000)).toThrow(expect.objectContaining({ name: 'TokenExpiredError' }));
  });

  it('keeps a token by its whole text: another signature on the same claims is verified, and refused', async () => {
    const { accessToken } = await tokens.issue('client-1', ['orders']);
    tokens.verify(accessToken);
    const [header, payload, signature] = accessToken.split('.');
    const forged = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    expect(() => tokens.verify(forged)).toThrow(expect.objectContaining({ name: 'JsonWebTokenError' }));
    expect(tokens.bearerProblem(`Bearer ${forged}`, ['orders'])?.message).toBe('The access token is invalid');
  });

  it('still applies the lifetime rule and the scopes to a kept token', async () => {
    const long = jwt.sign(
      { scope: 'orders' },
      { subject: 'client-1', expiresIn: 7200, issuer: config.jwtIssuer, audience: config.jwtAudience },
    );
    expect(tokens.verify(long)).toMatchObject({ sub: 'client-1' });
    expect(tokens.bearerProblem(`Bearer ${long}`, ['orders'])?.message).toBe(
      'The access token lives longer than this service issues tokens for',
    );
    const { accessToken } = await tokens.issue('client-1', ['orders']);
    expect(tokens.bearerProblem(`Bearer ${accessToken}`, ['orders'])).toBeUndefined();
    expect(tokens.bearerProblem(`Bearer ${accessToken}`, ['admin'])?.message).toBe('This operation needs the scope admin');
  });
});
