import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Schemas } from '../support/api.js';
import { HttpClient } from '../support/http.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { bootTestApp, BOOTSTRAP_ID, type TestApp } from '../support/test-app.js';

describe('secrets (reliability)', () => {
  let directory: string;
  let service: ServiceProcess;
  const secret = 'a-bootstrap-secret-that-must-never-appear-anywhere';

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'secrets-'));
    service = await startServiceProcess({
      DATABASE_URL: '',
      EMBEDDED_DB_DIR: join(directory, 'postgres'),
      JWT_SECRET: 'secrets-test-jwt-key-secrets-test-jwt-key',
      BOOTSTRAP_CLIENT_SECRET: secret,
      LOG_LEVEL: 'trace',
    });
  });
  afterAll(async () => {
    await service.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('stores client secrets only as salted scrypt hashes and never logs a secret or a token', async () => {
    const http = new HttpClient(service.baseUrl);
    const login = await http.post<Schemas['LoginResponseDto']>('/authentication/login', {
      client_id: BOOTSTRAP_ID,
      client_secret: secret,
      grant_type: 'client_credentials',
    });
    expect(login.status).toBe(200);
    await http.post<Schemas['LoginResponseDto']>('/authentication/login', {
      client_id: BOOTSTRAP_ID,
      client_secret: `${secret}-wrong`,
      grant_type: 'client_credentials',
    });
    await http.post('/domain-cliente/token', undefined, {
      raw: `grant_type=client_credentials&client_id=${BOOTSTRAP_ID}&client_secret=${secret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await http.get('/authentication/me', { token: login.body.accessToken });

    const pg = await import('pg');
    const { readFile } = await import('node:fs/promises');
    const port = Number((await readFile(join(directory, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[3]);
    const password = (await readFile(join(directory, 'postgres', '.service-password'), 'utf8')).trim();
    // A plain client on the service's own embedded database: what is stored, byte for byte, is the point here.
    const client = new pg.default.Client({
      connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT secret_hash FROM api_client WHERE client_id = $1', [BOOTSTRAP_ID]);
      expect(rows[0].secret_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
      const dump = await client.query(`SELECT to_jsonb(c)::text AS row FROM api_client c`);
      expect(dump.rows.some((row) => row.row.includes(secret))).toBe(false);
    } finally {
      await client.end();
    }
    const logs = service.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(login.body.accessToken);
    expect(logs).not.toContain('secrets-test-jwt-key');
  });
});

describe('login timing (reliability)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes as long for an unknown client id as for a wrong secret (both run the hash)', async () => {
    const time = async (clientId: string) => {
      const started = process.hrtime.bigint();
      const response = await t.http.post<Schemas['LoginResponseDto']>('/authentication/login', {
        client_id: clientId,
        client_secret: 'wrong-secret',
        grant_type: 'client_credentials',
      });
      expect(response.status).toBe(401);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let index = 0; index < 40; index++) {
      // Interleaved, so that a slower moment of the shared machine hits both.
      unknown.push(await time(String(900_000 + index)));
      wrong.push(await time(BOOTSTRAP_ID));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ratio = median(unknown) / median(wrong);
    process.stdout.write(
      `[login timing] median unknown id ${median(unknown).toFixed(1)} ms, wrong secret ${median(wrong).toFixed(1)} ms, ratio ${ratio.toFixed(2)}\n`,
    );
    // Without the dummy hash an unknown id answers ~50x faster (no scrypt); with it the two are within noise.
    expect(ratio).toBeGreaterThan(0.7);
    expect(ratio).toBeLessThan(1.4);
  });
});

describe('request bodies over the limit (reliability)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ BODY_LIMIT_BYTES: '65536' });
  });
  afterAll(async () => {
    await t.close();
  });

  function rawRequest(head: string, body: (socket: import('node:net').Socket) => void): Promise<{ response: string; bytesSent: number }> {
    const { port } = new URL(t.baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let response = '';
      socket.setTimeout(10_000, () => reject(new Error('no answer in 10 s')));
      socket.on('data', (chunk) => {
        response += chunk.toString();
        if (response.includes('\r\n\r\n')) {
          resolve({ response, bytesSent: socket.bytesWritten });
          socket.destroy();
        }
      });
      socket.on('error', () => resolve({ response, bytesSent: socket.bytesWritten }));
      socket.on('connect', () => {
        socket.write(head);
        body(socket);
      });
    });
  }

  it('answers 413 from the Content-Length alone, without waiting for the body', async () => {
    const { response, bytesSent } = await rawRequest(
      'POST /api/authentication/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n',
      (socket) => socket.write('{"client_id":'),
    );
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(bytesSent).toBeLessThan(1000);
  });

  it('stops a chunked body at the limit instead of buffering it whole', async () => {
    let sent = 0;
    const { response } = await rawRequest(
      'POST /api/authentication/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      (socket) => {
        const chunk = 'x'.repeat(16 * 1024);
        const timer = setInterval(() => {
          if (socket.destroyed || sent > 20 * 1024 * 1024) return clearInterval(timer);
          socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
          sent += chunk.length;
        }, 2);
      },
    );
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    // The answer came after about the limit (64 KiB), far before the 20 MiB the client was ready to send.
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('credential rate limits (reliability)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    [
      'POST /api/authentication/login',
      '/authentication/login',
      (body: unknown) => ({ message: expect.any(String), error: 'RATE_LIMITED', ...(body as object) }),
    ],
    [
      'POST /api/domain-cliente/token',
      '/domain-cliente/token',
      () => ({ error: 'too_many_requests', error_description: expect.any(String) }),
    ],
    ['POST /api/v3/channels-stores', '/v3/channels-stores', () => ({ statusCode: '429', message: expect.any(String) })],
  ])('%s answers 429 with Retry-After in its family shape past the limit', async (_label, path, shape) => {
    const wrong = { authorization: `Basic ${Buffer.from('999999:wrong').toString('base64')}` };
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof t.http.post>> | undefined;
    for (let index = 0; index < 3; index++) {
      last = await t.http.post(path, { client_id: '999999', client_secret: 'wrong', grant_type: 'client_credentials' }, { headers: wrong });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 2).every((status) => status === 400 || status === 401)).toBe(true);
    expect(statuses[2]).toBe(429);
    expect(last!.body).toEqual(shape({}));
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
