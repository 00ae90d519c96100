import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/app-config.js';

/**
 * The compose file and its proxy as an operator runs them (no Docker engine in CI: their content
 * is checked here, and .ci/run validates the Caddyfile with Caddy itself). Compose once
 * defaulted JWT_SECRET to a placeholder anyone could sign admin tokens with, and scaled out on
 * a range of host ports with no load balancer.
 */
interface Service {
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
}
const compose = parse(readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet?: string; ip_range?: string }> } }>;
};
const caddyfile = readFileSync(new URL('../../deploy/Caddyfile', import.meta.url), 'utf8');
const instances = Object.keys(compose.services).filter((name) => /^api-\d+$/.test(name));

describe('docker-compose.yml', () => {
  it('runs several instances, each refusing to start without a JWT_SECRET, listening on every interface in production', () => {
    expect(instances.length).toBeGreaterThanOrEqual(2);
    for (const name of instances) {
      const environment = compose.services[name]!.environment!;
      expect(environment.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
      expect(environment.PERSONAL_DATA_KEY).toMatch(/^\$\{PERSONAL_DATA_KEY:\?[^}]+\}$/);
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

  it("has the instances trust the proxy's fixed address only, one no other container can be given", () => {
    const proxyAddress = compose.services.proxy!.networks?.default?.ipv4_address;
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    for (const name of instances) expect([name, compose.services[name]!.environment!.TRUSTED_PROXIES]).toEqual([name, proxyAddress]);
    // The address lies in the network's subnet and outside the range Docker hands out to the other containers.
    const [{ subnet, ip_range: dynamicRange }] = compose.networks!.default!.ipam!.config! as [{ subnet: string; ip_range: string }];
    const within = (address: string, cidr: string) => {
      const [base, bits] = cidr.split('/') as [string, string];
      const value = (text: string) => text.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
      const size = 2 ** (32 - Number(bits));
      return Math.floor(value(address) / size) === Math.floor(value(base) / size);
    };
    expect(within(proxyAddress!, subnet)).toBe(true);
    expect(within(proxyAddress!, dynamicRange)).toBe(false);
    expect(loadConfig({ TRUSTED_PROXIES: proxyAddress! }).trustedProxies).toEqual([proxyAddress]);
  });
});
