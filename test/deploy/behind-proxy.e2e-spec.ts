import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/database/embedded-postgres.js';
import { eventually } from '../support/eventually.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * The service behind the compose file's own reverse proxy (deploy/Caddyfile, run by Caddy), with
 * clients on distinct loopback addresses. Every request reaches the service from the proxy's
 * address: only TRUSTED_PROXIES lets the credential rate limit count each client apart.
 */
const CADDY = process.env.CADDY_PATH ?? 'caddy';
const caddyRuns = spawnSync(CADDY, ['version']).status === 0;
/** `.ci/run` installs Debian's caddy; on a machine without it this test is skipped, loudly. */
const describeWithCaddy = caddyRuns ? describe : describe.skip;
if (!caddyRuns)
  process.stderr.write(`[behind-proxy test] no ${CADDY} on this machine: skipped (install Debian's caddy or set CADDY_PATH)\n`);

const WRONG = JSON.stringify({ client_id: '999999', client_secret: 'wrong', grant_type: 'client_credentials' });

/** A raw request (fetch would normalise some paths, and cannot choose the local address): status and body. */
function send(
  port: number,
  options: { path: string; method?: string; from?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { path, method = 'GET', from, headers = {}, body } = options;
    const outgoing = request({ host: '127.0.0.1', port, localAddress: from, method, path, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A wrong login from `from` (a loopback address) to `port`: its status. */
async function login(port: number, from: string, headers: Record<string, string> = {}): Promise<number> {
  const answer = await send(port, {
    path: '/api/authentication/login',
    method: 'POST',
    from,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(WRONG)), ...headers },
    body: WRONG,
  });
  return answer.status;
}

interface Proxy {
  port: number;
  stop(): Promise<void>;
}

/** deploy/Caddyfile with its listener on a free loopback port and `app` as its only upstream. */
async function startProxy(directory: string, app: TestApp): Promise<Proxy> {
  const port = await freePort();
  const upstream = new URL(app.baseUrl).host;
  const deployed = await readFile(new URL('../../deploy/Caddyfile', import.meta.url), 'utf8');
  const config = deployed
    .replace(/^:3000 \{/m, `http://127.0.0.1:${port} {`)
    .replace(/reverse_proxy [^{]+\{/, `reverse_proxy ${upstream} {`);
  expect(config).toContain(`reverse_proxy ${upstream} {`);
  const file = join(directory, `Caddyfile-${port}`);
  // No admin endpoint (its fixed port would collide between runs), no certificates.
  await writeFile(file, `{\n\tadmin off\n\tauto_https off\n}\n\n${config}`);
  const child: ChildProcess = spawn(CADDY, ['run', '--config', file, '--adapter', 'caddyfile'], {
    env: { ...process.env, HOME: directory, XDG_DATA_HOME: directory, XDG_CONFIG_HOME: directory },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = await eventually(
    async () =>
      child.exitCode !== null ||
      (await fetch(`http://127.0.0.1:${port}/api/health/live`).then(
        (response) => response.status === 200,
        () => false,
      )),
    { timeoutMs: 15_000, intervalMs: 100 },
  ).catch(() => false);
  if (!started || child.exitCode !== null) throw new Error(`caddy did not start:\n${output}`);
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    },
  };
}

describeWithCaddy('behind the deployed reverse proxy (Caddy, deploy/Caddyfile)', () => {
  let directory: string;
  let trusting: TestApp;
  let trustingProxy: Proxy;
  let plain: TestApp;
  let plainProxy: Proxy;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'behind-proxy-'));
    trusting = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1' });
    plain = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    trustingProxy = await startProxy(directory, trusting);
    plainProxy = await startProxy(directory, plain);
  }, 60_000);
  afterAll(async () => {
    await trustingProxy?.stop();
    await plainProxy?.stop();
    await trusting?.close();
    await plain?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('with TRUSTED_PROXIES, counts each client behind the proxy under its own address', async () => {
    const first = [];
    for (let attempt = 0; attempt < 3; attempt += 1) first.push(await login(trustingProxy.port, '127.0.0.2'));
    expect(first).toEqual([401, 401, 429]);
    // Another client through the same proxy is not limited by the first one's attempts.
    expect(await login(trustingProxy.port, '127.0.0.3')).toBe(401);
  });

  it('lets no client choose its address with X-Forwarded-For, through the proxy or directly', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) await login(trustingProxy.port, '127.0.0.4');
    expect(await login(trustingProxy.port, '127.0.0.4')).toBe(429);
    // The proxy replaces the header it receives with the address it sees.
    expect(await login(trustingProxy.port, '127.0.0.4', { 'x-forwarded-for': '198.51.100.7' })).toBe(429);
    // A client reaching the service directly is not a trusted proxy: its header is ignored, both ways.
    const direct = new URL(trusting.baseUrl).port;
    expect(await login(Number(direct), '127.0.0.4', { 'x-forwarded-for': '198.51.100.7' })).toBe(429);
    expect(await login(Number(direct), '127.0.0.5', { 'x-forwarded-for': '127.0.0.4' })).toBe(401);
  });

  it('keeps the metrics off the public port, however the path is spelled, while each instance still serves them', async () => {
    const direct = await fetch(`${trusting.baseUrl}/metrics`);
    expect(direct.status).toBe(200);
    await expect(direct.text()).resolves.toContain('http_requests_total');
    const leaks: string[] = [];
    for (const path of [
      '/api/metrics',
      '/api/metrics/',
      '/API/METRICS',
      '/api/%6Detrics',
      '/api/metrics?x=1',
      '//api/metrics',
      '/api/./metrics',
      '/api/x/../metrics',
    ]) {
      const answer = await send(trustingProxy.port, { path });
      if (answer.status === 200 || answer.body.includes('http_requests_total')) leaks.push(`${path} ${answer.status}`);
    }
    expect(leaks).toEqual([]);
    const refused = await fetch(`http://127.0.0.1:${trustingProxy.port}/api/metrics`);
    expect([refused.status, refused.headers.get('content-type'), await refused.json()]).toEqual([
      404,
      'application/json',
      { message: 'Not found', error: 'NOT_FOUND' },
    ]);
  });

  it('without TRUSTED_PROXIES, every client behind the proxy shares the proxy address and its one limit', async () => {
    expect(await login(plainProxy.port, '127.0.0.2')).toBe(401);
    expect(await login(plainProxy.port, '127.0.0.3')).toBe(401);
    expect(await login(plainProxy.port, '127.0.0.4')).toBe(429);
  });
});
