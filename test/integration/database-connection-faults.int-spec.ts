import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { dataSourceOptions } from '../../src/database/data-source-options.js';

/** A PostgreSQL protocol message: its type byte, its length (itself included), its body. */
function message(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
const readyForQuery = message('Z', Buffer.from('I'));
const fields = (entries: Array<[string, string]>) =>
  Buffer.concat([...entries.map(([code, value]) => Buffer.from(`${code}${value}\0`)), Buffer.from([0])]);
/** What PostgreSQL sends each session when it is stopped (`pg_ctl stop -m fast`). */
const adminShutdown = message(
  'E',
  fields([
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P01'],
    ['M', 'terminating connection due to administrator command'],
  ]),
);

/**
 * A stopping PostgreSQL can accept a session and end it in one packet. The pool hands the new
 * client out on "ready" and its owner attaches an error listener a microtask later: the FATAL read
 * from the same packet falls between the two. With no listener, pg's 'error' event ends the
 * process (seen as a dead service in the database outage test).
 */
describe('a connection PostgreSQL ends as it accepts it (integration)', () => {
  let server: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      // The startup message, then "ready" and the shutdown's FATAL in one write.
      socket.once('data', () => socket.write(Buffer.concat([authenticationOk, readyForQuery, adminShutdown])));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });

  it("fails the client's query instead of ending the process", async () => {
    const address = server.address() as { port: number };
    const options = dataSourceOptions({ url: `postgres://user:secret@127.0.0.1:${address.port}/orders`, poolSize: 2 });
    const pool = new pg.Pool((options as { extra: pg.PoolConfig }).extra);
    const poolErrors: Error[] = [];
    pool.on('error', (error) => poolErrors.push(error));
    try {
      // Without a listener from birth, the FATAL is thrown from the socket's data handler
      // here, as an uncaught exception that fails this test.
      const client = await pool.connect();
      await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|terminat/i);
      client.release(true);
    } finally {
      await pool.end();
    }
    expect(poolErrors).toEqual([]);
  });
});
