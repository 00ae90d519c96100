import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * The compose file and its proxy as an operator runs them (no Docker engine in CI: their content
 * is checked here, and .ci/run validates the Caddyfile with Caddy itself). Issue 18: compose
 * defaulted JWT_SECRET to a placeholder anyone could sign admin tokens with, and scaled out on
 * a range of host ports with no load balancer.
 */
interface Service {
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
}
const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const caddyfile = readFileSync(new URL('../../deploy/Caddyfile', import.meta.url), 'utf8');
const instances = Object.keys(compose.services).filter((name) => /^api-\d+$/.test(name));

describe('docker-compose.yml', () => {
  it('runs several instances, each refusing to start without a JWT_SECRET, listening on every interface in production', () => {
    expect(instances.length).toBeGreaterThanOrEqual(2);
    for (const name of instances) {
      const environment = compose.services[name]!.environment!;
      expect(environment.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
      expect([name, environment.HOST, environment.NODE_ENV]).toEqual([name, '0.0.0.0', 'production']);
      // Reached through the proxy only.
      expect(compose.services[name]!.ports).toBeUndefined();
    }
  });

  it('puts a reverse proxy on one port in front of every instance, checking /api/health/ready', () => {
    const proxy = compose.services.proxy!;
    expect(proxy.ports).toEqual(['3000:3000']);
    expect(proxy.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1]!.trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(instances.map((name) => `${name}:3000`).sort());
    expect(caddyfile).toMatch(/health_uri \/api\/health\/ready/);
  });
});
