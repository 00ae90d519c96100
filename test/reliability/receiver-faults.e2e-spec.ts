import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { orderFor, seedFiscalData } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

type Mode = 'refuse' | 'hang' | 'reset' | 'slow' | 'healthy';

/** A webhook receiver whose behaviour the test switches: refused connections, hangs, resets, slow answers. */
class FaultyReceiver {
  mode: Mode = 'healthy';
  readonly delivered = new Set<string>();
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async listen(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (this.mode === 'hang') return;
        if (this.mode === 'reset') return request.socket.destroy();
        const answer = () => {
          if (response.destroyed) return;
          this.delivered.add(JSON.parse(body).orderId);
          response.writeHead(200).end('ok');
        };
        if (this.mode === 'slow') setTimeout(answer, 600);
        else answer();
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Nothing listens on the port any more: connections are refused. */
  async refuse(): Promise<void> {
    this.mode = 'refuse';
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server!.close(done));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => (this.server?.listening ? this.server.close(done) : done(undefined)));
  }
}

/**
 * While the webhook receiver misbehaves, forwards fail within the timeout and the
 * service's other routes keep answering quickly; once it recovers, the background
 * retries deliver every order.
 */
describe('webhook receiver faults (reliability)', () => {
  let t: TestApp;
  const receiver = new FaultyReceiver();

  beforeAll(async () => {
    await receiver.listen();
    t = await bootTestApp({
      ORDER_WEBHOOK_URL: `http://127.0.0.1:${receiver.port}/orders`,
      ORDER_WEBHOOK_TIMEOUT_MS: '800',
      WEBHOOK_RETRY_ENABLED: 'true',
      WEBHOOK_RETRY_SCHEDULE: '500ms,1s,1s,1s,1s,1s,1s,1s',
      DATABASE_POOL_SIZE: '20',
    });
    await seedFiscalData(t.http, await t.adminToken(), 'faults-store');
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('keeps other routes fast during the outage and delivers every order after it', async () => {
    const token = await t.adminToken();
    const forwarded: string[] = [];
    const forwardStatuses = new Map<number, number>();
    let longestForward = 0;
    const probeLatencies: number[] = [];
    let running = true;
    let sequence = 0;

    const forwarder = async (index: number) => {
      while (running) {
        const orderId = `fault-${process.pid}-${index}-${++sequence}`;
        const started = Date.now();
        const response = await t.http.post('/enrich-order-forward', orderFor(orderId, 'faults-store'), { token });
        longestForward = Math.max(longestForward, Date.now() - started);
        forwardStatuses.set(response.status, (forwardStatuses.get(response.status) ?? 0) + 1);
        if (response.status === 200 || response.status === 502) forwarded.push(orderId);
      }
    };
    const probe = async () => {
      while (running) {
        const started = Date.now();
        const list = await t.http.get('/admin/orders', { token, query: { storeId: 'faults-store', pageSize: 5 } });
        const enrich = await t.http.post('/enrich-order', orderFor(`probe-${++sequence}`, 'faults-store'), { token });
        expect([list.status, enrich.status]).toEqual([200, 200]);
        probeLatencies.push((Date.now() - started) / 2);
        await new Promise((done) => setTimeout(done, 20));
      }
    };
    const workers = [...Array.from({ length: 6 }, (_, index) => forwarder(index)), probe()];

    for (const mode of ['hang', 'reset', 'slow'] as const) {
      receiver.mode = mode;
      await new Promise((done) => setTimeout(done, 1500));
    }
    await receiver.refuse();
    await new Promise((done) => setTimeout(done, 1500));
    running = false;
    await Promise.all(workers);

    // The receiver comes back (same port); the retries deliver what failed.
    receiver.mode = 'healthy';
    await receiver.listen();
    const recovered = Date.now();
    const deadline = Date.now() + 30_000;
    let pending = forwarded.filter((orderId) => !receiver.delivered.has(orderId));
    while (pending.length > 0 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 200));
      pending = forwarded.filter((orderId) => !receiver.delivered.has(orderId));
    }
    const sorted = [...probeLatencies].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    process.stdout.write(
      `[receiver faults] forwards ${JSON.stringify(Object.fromEntries(forwardStatuses))}, longest forward ${longestForward} ms; ` +
        `other routes: ${probeLatencies.length} probes, p99 ${p99.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms; ` +
        `all ${forwarded.length} delivered ${Date.now() - recovered} ms after the receiver recovered\n`,
    );

    expect(forwarded.length).toBeGreaterThan(10);
    expect(forwardStatuses.get(500) ?? 0).toBe(0);
    // A forward never waits much longer than the 800 ms timeout (slow answers take 600 ms).
    expect(longestForward).toBeLessThan(2500);
    // The other routes do not queue behind the hung receiver.
    expect(p99).toBeLessThan(500);
    expect(pending).toEqual([]);
    // The receiver counts an order before its answer reaches the service, which records the outcome after reading it.
    const statuses = () =>
      t.dataSource.query(`SELECT status, count(*)::int AS n FROM orders WHERE order_id = ANY($1) GROUP BY status`, [forwarded]);
    let rows = await statuses();
    while (!(rows.length === 1 && rows[0].status === 'FORWARDED') && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 200));
      rows = await statuses();
    }
    expect(rows).toEqual([{ status: 'FORWARDED', n: forwarded.length }]);
  });
});
