import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { forwardedPayload } from './webhook-receiver.js';

export type ReceiverMode = 'refuse' | 'hang' | 'reset' | 'slow' | 'healthy';

/**
 * A webhook receiver whose behaviour the caller switches: refused connections, hangs, resets, answers
 * after 600 ms. It keeps the orderId of every order it answered 200. Used by the receiver-faults
 * reliability test and by `npm run bench:receiver-faults`.
 */
export class FaultyReceiver {
  mode: ReceiverMode = 'healthy';
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
          this.delivered.add(forwardedPayload({ body }).orderId);
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
