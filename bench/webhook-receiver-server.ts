/**
 * The order webhook of `npm run bench:forward`: a bare node:http server on 127.0.0.1 that
 * reads each POST and answers 200 at once. It exits on SIGTERM, or by itself after
 * RECEIVER_MAX_SECONDS (default 900) so that a crashed bench cannot leave it running.
 */
import { createServer } from 'node:http';

let received = 0;
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received += 1;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
  });
});
server.keepAliveTimeout = 60_000;

const stop = () => {
  process.stderr.write(`webhook receiver: ${received} deliveries received\n`);
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
setTimeout(stop, Number(process.env.RECEIVER_MAX_SECONDS ?? 900) * 1000).unref();
process.on('SIGTERM', stop);

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`LISTENING http://127.0.0.1:${port}/hooks/orders\n`);
});
