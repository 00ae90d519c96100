import { ErrorFamily } from '../../src/common/errors/error-families.js';
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Schemas, ErrorBody } from '../support/api.js';
import { expectErrorShape } from '../support/openapi-routes.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { existingOrderRow, orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * What arrives before the application: bodies the route does not take or sent without a
 * token, stalled requests, charsets and encodings, text PostgreSQL cannot store, and the
 * answers Node's HTTP parser gives by itself. Raw sockets, because `fetch` cannot send
 * headers and then stall, or send broken framing.
 */

const REQUEST_TIMEOUT_MS = 1500;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON: each test names the error family it expects. */
  body: unknown;
  /** Bytes of the body the client had written when the answer arrived. */
  bodyBytesSent: number;
}

/** Opens a socket to the test app, writes `head`, then calls `feed` to trickle a body; resolves with the first answer. */
function rawExchange(t: TestApp, head: string, feed?: (socket: Socket, sent: (bytes: number) => void) => void): Promise<RawAnswer> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = Buffer.alloc(0);
    let bodyBytesSent = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 20 s'));
    }, 20_000);
    const finish = () => {
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return false;
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? -1);
      const bodyText = text.slice(split + 4);
      if (length >= 0 && Buffer.byteLength(bodyText) < length) return false;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: bodyText ? JSON.parse(bodyText) : undefined, bodyBytesSent });
      return true;
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!finish()) {
        clearTimeout(timer);
        reject(new Error(`connection closed without a complete answer: ${JSON.stringify(received.toString())}`));
      }
    });
    socket.write(head, () => feed?.(socket, (bytes) => (bodyBytesSent += bytes)));
  });
}

describe('requests refused before the application reads them', () => {
  let t: TestApp;
  let token: string;
  const storeId = unique('edge-store');

  beforeAll(async () => {
    t = await bootTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    token = await t.adminToken();
    await seedFiscalData(t.http, token, storeId);
  });
  afterAll(() => t.close());

  describe('bodies are read only for the route content types and after authentication', () => {
    it('answers an unauthenticated 8 MB text/csv upload to a JSON route before any byte of its body is sent', async () => {
      const answer = await rawExchange(
        t,
        'POST /api/enrich-order HTTP/1.1\r\nhost: x\r\ncontent-type: text/csv\r\ncontent-length: 8000000\r\n\r\n',
      );
      expect([401, 415]).toContain(answer.status);
      expect(answer.bodyBytesSent).toBe(0);
      expect(answer.headers['x-request-id']).toBeTruthy();
      expectErrorShape(ErrorFamily.AdminApi, answer.body);
    });

    it('answers 401 to a JSON body without a token on a protected route before the body is sent', async () => {
      const answer = await rawExchange(
        t,
        'POST /api/admin/fiscal-groups HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 900000\r\n\r\n',
      );
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(answer.bodyBytesSent).toBe(0);
      expect(answer.body).toEqual({ error: 'UNAUTHORIZED', message: 'A bearer token is required (Authorization: Bearer <token>)' });
    });

    it('refuses a forged token before the body, in the fulfillment family shape', async () => {
      const forged = `${token.slice(0, -4)}AAAA`;
      const answer = await rawExchange(
        t,
        `PUT /api/api/order/transfer HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${forged}\r\ncontent-type: application/json\r\ncontent-length: 500000\r\n\r\n`,
      );
      expect(answer.status).toBe(401);
      expect(answer.bodyBytesSent).toBe(0);
      expectErrorShape(ErrorFamily.PointOfSale, answer.body);
    });

    it('refuses text/csv on every route but the tax-matrix import, with a valid token too', async () => {
      const answer = await t.http.post<ErrorBody>('/admin/product-fiscal-categories', undefined, {
        token,
        raw: 'productId,productName,ncm\n',
        headers: { 'content-type': 'text/csv' },
      });
      expect(answer.status).toBe(415);
      expect(answer.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('still reads public routes and the CSV import as before', async () => {
      const login = await t.http.post<Schemas['LoginResponseDto']>('/authentication/login', {
        client_id: '999',
        client_secret: 'wrong',
        grant_type: 'client_credentials',
      });
      expect(login.status).toBe(401);
      const groups = await t.http.get<Schemas['FiscalGroupPageDto']>('/admin/fiscal-groups', { token, query: { storeId } });
      const id = groups.body.items[0]!.id;
      const csv =
        'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\n21069090,,00,18,01,0.65,01,3\n22021000,0300700,60,18,04,0.65,04,3\n';
      const imported = await t.http.put(`/admin/fiscal-groups/${id}/tax-matrix`, undefined, {
        token,
        raw: csv,
        headers: { 'content-type': 'text/csv' },
      });
      expect(imported.status).toBe(200);
    });

    it(`drops a request whose body stalls after REQUEST_TIMEOUT_MS with 408, x-request-id and the family shape`, async () => {
      let trickle: NodeJS.Timeout | undefined;
      const answer = await rawExchange(
        t,
        `POST /api/enrich-order HTTP/1.1\r\nhost: x\r\nx-request-id: stalled-1\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
        (socket, sent) => {
          // One byte every 400 ms: never idle long enough for a socket timeout, never complete.
          trickle = setInterval(() => socket.write('{', () => sent(1)), 400);
          socket.on('close', () => clearInterval(trickle));
        },
      );
      clearInterval(trickle);
      expect(answer.status).toBe(408);
      expect(answer.headers['x-request-id']).toBe('stalled-1');
      expect(answer.body).toEqual({ error: 'REQUEST_TIMEOUT', message: expect.stringContaining('REQUEST_TIMEOUT_MS') });
    });
  });

  describe('charsets, encodings and text PostgreSQL cannot store', () => {
    it('refuses a JSON body in another charset with 415 instead of garbling it', async () => {
      const answer = await t.http.post<ErrorBody>('/enrich-order', undefined, {
        token,
        raw: Buffer.from(JSON.stringify(orderFor(unique('latin1'), storeId)), 'latin1'),
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('UTF-8') });
    });

    it('refuses a compressed body with 415 naming the encoding', async () => {
      const answer = await t.http.post<ErrorBody>('/enrich-order', undefined, {
        token,
        raw: gzipSync(JSON.stringify(orderFor(unique('gzip'), storeId))),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expect(answer.status).toBe(415);
      expect(answer.body.message).toContain('gzip');
    });

    it('skips a leading byte-order mark and stores the order', async () => {
      const orderId = unique('bom');
      const answer = await t.http.post<ErrorBody>('/enrich-order', undefined, {
        token,
        raw: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(orderFor(orderId, storeId)))]),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(answer.status).toBe(200);
      expect((await existingOrderRow(t.dataSource, orderId)).status).toBe('ENRICHED');
    });

    it('answers 400 naming the body field that holds a lone surrogate', async () => {
      const orderId = unique('surrogate');
      const raw = JSON.stringify(orderFor(orderId, storeId)).replace('"reliability"', '"bad \\ud800 text"');
      const answer = await t.http.post<ErrorBody>('/enrich-order', undefined, {
        token,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.details).toEqual([{ field: 'source', problem: expect.stringContaining('surrogate') }]);
      expect(await orderRow(t.dataSource, orderId)).toBeNull();
    });

    it.each([
      ['a NUL in a query value', '/admin/orders?storeId=a%00b', 'query parameter "storeId"'],
      ['an encoded surrogate in a query value', '/admin/orders?storeId=%ED%A0%80', 'query parameter "storeId"'],
      ['a NUL in a path id', '/admin/orders/abc%00def', 'path'],
      ['an encoded surrogate in a path id', '/admin/product-fiscal-categories/%ED%A0%80', 'path'],
    ])('answers 400 naming the field for %s', async (_case, path, field) => {
      const answer = await t.http.get<ErrorBody>(path, { token });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_FAILED');
      expect(answer.body.details?.[0]?.field).toBe(field);
    });
  });

  describe('answers of the HTTP parser carry x-request-id and the family shape', () => {
    it('431 when the headers are too large, in the fulfillment family shape', async () => {
      const answer = await rawExchange(
        t,
        `POST /api/api/order/status HTTP/1.1\r\nhost: x\r\nx-request-id: big-headers-1\r\nx-filler: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(answer.status).toBe(431);
      expect(answer.headers['x-request-id']).toBe('big-headers-1');
      expectErrorShape(ErrorFamily.PointOfSale, answer.body);
    });

    it('400 for bad framing, in the channel-configuration family shape', async () => {
      const answer = await rawExchange(
        t,
        'POST /api/v3/channels-stores HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      );
      expect(answer.status).toBe(400);
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(answer.body).toEqual({ statusCode: '400', message: expect.stringContaining('HTTP/1.1') });
    });

    it('400 for an HTTP/1.1 request without Host, in the route family shape with x-request-id', async () => {
      const posAnswer = await rawExchange(t, 'GET /api/api/order/infoPayments HTTP/1.1\r\nx-request-id: no-host-1\r\n\r\n');
      expect(posAnswer.status).toBe(400);
      expect(posAnswer.headers['x-request-id']).toBe('no-host-1');
      expectErrorShape(ErrorFamily.PointOfSale, posAnswer.body);
      expect(posAnswer.body).toMatchObject({ message: expect.stringContaining('Host') });
      const adminAnswer = await rawExchange(t, 'GET /api/admin/orders HTTP/1.1\r\n\r\n');
      expect(adminAnswer.status).toBe(400);
      expect(adminAnswer.headers['x-request-id']).toBeTruthy();
      expect(adminAnswer.body).toMatchObject({ error: 'VALIDATION_FAILED', details: [{ field: 'host' }] });
    });

    it('408 for a stalled token request, in the OAuth family shape', async () => {
      const answer = await rawExchange(
        t,
        'POST /api/domain-cliente/token HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 50\r\n\r\n{"grant',
      );
      expect(answer.status).toBe(408);
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(answer.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('in time') });
    });
  });
});
