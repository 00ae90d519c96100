import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * The compose file as an operator runs it (no Docker engine in CI: its content is checked).
 * Issue 18: it defaulted JWT_SECRET to a placeholder anyone could sign admin tokens with.
 */
const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8')) as {
  services: Record<string, { environment?: Record<string, string> }>;
};

describe('docker-compose.yml', () => {
  const api = compose.services.api!;

  it('refuses to start without a JWT_SECRET (no default value)', () => {
    expect(api.environment!.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
  });

  it('listens on every interface inside the container, in production mode', () => {
    expect(api.environment!.HOST).toBe('0.0.0.0');
    expect(api.environment!.NODE_ENV).toBe('production');
  });
});
