import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { closeGracefully } from '../../src/common/http/graceful-close.js';
import { eventually } from '../support/eventually.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/** Everything a raw socket receives, and whether the service ended or reset it. */
function record(socket: Socket) {
  const seen = { text: '', ended: false, error: undefined as string | undefined };
  socket.on('data', (chunk: Buffer) => (seen.text += chunk.toString('latin1')));
  socket.on('end', () => (seen.ended = true));
  socket.on('error', (error: NodeJS.ErrnoException) => (seen.error = error.code ?? error.message));
  return seen;
}

describe('closeGracefully', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await bootTestApp();
  });
  afterAll(async () => {
    await testApp.close().catch(() => undefined);
  });

  it('answers a request sent on a kept-alive connection just before the stop, instead of resetting it', async () => {
    const { port } = testApp.app.getHttpServer().address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const seen = record(socket);
    socket.write('GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await eventually(() => seen.text.includes('HTTP/1.1 200'), { what: 'the first answer' });
    expect(seen.text.toLowerCase()).toContain('connection: keep-alive');

    // The connection now looks idle. The next request reaches the kernel before the stop begins,
    // but the service has not read it yet: an immediate close of the idle connections would reset it.
    seen.text = '';
    socket.write('GET /api/admin/fiscal-groups HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const closed = closeGracefully(testApp.app);

    await eventually(() => seen.ended || seen.error !== undefined, { what: 'the connection to end' });
    await closed;
    expect(seen.error).toBeUndefined();
    // Refused cleanly: the drain's 503, which tells the client to leave the connection.
    expect(seen.text).toMatch(/^HTTP\/1\.1 503/);
    expect(seen.text.toLowerCase()).toContain('connection: close');
    expect(seen.text.toLowerCase()).toContain('retry-after: 1');
    socket.destroy();
  });
});
