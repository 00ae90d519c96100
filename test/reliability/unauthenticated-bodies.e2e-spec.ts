import { connect, type Socket } from 'node:net';
import { ErrorFamily } from '../../src/common/errors/error-families.js';
import { CREDENTIALS_BODY_LIMIT_BYTES } from '../../src/common/http/route-config.js';
import { eventually } from '../support/eventually.js';
import { expectErrorShape } from '../support/openapi-routes.js';
import { bootTestApp, BOOTSTRAP_ID, BOOTSTRAP_SECRET, type TestApp } from '../support/test-app.js';

/**
 * Bodies read before any credential is checked cost memory and a socket each while they arrive.
 * Credentials bodies are bounded to what credentials need, and the service reads at most
 * UNAUTHENTICATED_BODIES_MAX such bodies at once: the others are answered 503 before their body is
 * read. Shown by counting answers of many raw connections that stall or offer 1 MiB, never by time.
 */

const MAX = 4;
const MIB = 1024 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface OpenRequest {
  socket: Socket;
  /** Set once the whole answer has arrived. */
  answer?: Answer;
  /** Body bytes written so far. */
  bodyBytesSent: number;
}

describe('unauthenticated bodies (reliability)', () => {
  let t: TestApp;
  const opened: OpenRequest[] = [];

  beforeAll(async () => {
    t = await bootTestApp({
      UNAUTHENTICATED_BODIES_MAX: String(MAX),
      // The stalled requests below are ended by the test, never by the service's timeout.
      REQUEST_TIMEOUT_MS: '600000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(async () => {
    for (const request of opened) request.socket.destroy();
    await t.close();
  });

  /** Writes the request head and `firstBytes` of a body of `length` bytes (chunked when undefined), then stalls. */
  function open(path: string, length: number | undefined, firstBytes: string): OpenRequest {
    const { port } = new URL(t.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    const request: OpenRequest = { socket, bodyBytesSent: 0 };
    opened.push(request);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1 || request.answer) return;
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const bodyText = text.slice(split + 4);
      if (Buffer.byteLength(bodyText) < Number(headers['content-length'] ?? 0)) return;
      request.answer = { status: Number(statusLine!.split(' ')[1]), headers, body: bodyText ? JSON.parse(bodyText) : undefined };
    });
    socket.on('error', () => undefined);
    const framing = length === undefined ? 'transfer-encoding: chunked' : `content-length: ${length}`;
    socket.write(`POST /api${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`);
    const first = length === undefined ? `${firstBytes.length.toString(16)}\r\n${firstBytes}\r\n` : firstBytes;
    socket.write(first);
    request.bodyBytesSent += firstBytes.length;
    return request;
  }

  const login = () =>
    t.http.post(
      '/authentication/login',
      { grant_type: 'client_credentials', client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET },
      { headers: { 'x-request-id': 'after-stall' } },
    );

  it(`reads at most ${MAX} bodies before authentication at once: the others get 503 with Retry-After in their family's shape`, async () => {
    // Stalled after their first bytes: whichever four arrive first hold every place.
    const stalled = [
      ...Array.from({ length: 5 }, () => open('/authentication/login', 2000, '{"client_id":')),
      ...Array.from({ length: 5 }, () => open('/domain-cliente/token', 2000, '{"client_id":')),
      ...Array.from({ length: 5 }, () => open('/v3/channels-stores', 500_000, '{"channels":')),
      ...Array.from({ length: 5 }, () => open('/no/such/route', 500_000, '{"x":')),
    ];
    const answered = await eventually(() => {
      const done = stalled.filter((request) => request.answer);
      return done.length >= stalled.length - MAX && done;
    });
    expect(answered).toHaveLength(stalled.length - MAX);
    for (const { answer } of answered) {
      expect([answer!.status, answer!.headers['retry-after'], answer!.headers['x-request-id']]).toEqual([503, '1', expect.any(String)]);
    }
    const familyOf = (request: OpenRequest) =>
      stalled.indexOf(request) < 5
        ? ErrorFamily.AdminApi
        : stalled.indexOf(request) < 10
          ? ErrorFamily.OAuth
          : stalled.indexOf(request) < 15
            ? ErrorFamily.ChannelConfiguration
            : ErrorFamily.AdminApi;
    for (const request of answered) expectErrorShape(familyOf(request), request.answer!.body);

    // A whole, small login waits for nothing either: refused while the places are held.
    expect((await login()).status).toBe(503);
    // A body sent with a bearer token is not counted.
    const withToken = await t.http.post('/enrich-order', { orderId: 'x' }, { token: await t.adminToken() });
    expect(withToken.status).not.toBe(503);

    // The held places come back when their connections go away.
    for (const request of stalled.filter((one) => !one.answer)) request.socket.destroy();
    await eventually(async () => (await login()).status === 200, { what: 'a login once the stalled bodies are gone' });
  });

  it('answers 1 MiB credentials from their Content-Length alone, 413 in each family, holding no place', async () => {
    // The attack: many unauthenticated connections each offering 1 MiB of credentials.
    const offers = [
      ...Array.from({ length: 50 }, () => open('/authentication/login', MIB, '{"client_secret":"')),
      ...Array.from({ length: 50 }, () => open('/domain-cliente/token', MIB, '{"client_secret":"')),
    ];
    await eventually(() => offers.every((request) => request.answer), { what: 'an answer to every offer' });
    for (const [index, { answer }] of offers.entries()) {
      expect(answer!.status).toBe(413);
      expectErrorShape(index < 50 ? ErrorFamily.AdminApi : ErrorFamily.OAuth, answer!.body);
    }
    // No place is held by any of them.
    expect((await login()).status).toBe(200);
  });

  it(`stops a chunked credentials body past ${CREDENTIALS_BODY_LIMIT_BYTES} bytes instead of reading 1 MiB`, async () => {
    const request = open('/authentication/login', undefined, '{"client_secret":"');
    const chunk = 'x'.repeat(1024);
    // One chunk at a time, each once the previous one is written, until the answer arrives.
    await new Promise<void>((done) => {
      const next = () => {
        if (request.answer || request.socket.destroyed || request.bodyBytesSent >= MIB) return done();
        request.bodyBytesSent += chunk.length;
        request.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, () => setImmediate(next));
      };
      request.socket.on('close', () => done());
      next();
    });
    await eventually(() => request.answer !== undefined, { what: 'the 413' });
    expect(request.answer!.status).toBe(413);
    expect(request.bodyBytesSent).toBeLessThan(MIB);
  });
});
