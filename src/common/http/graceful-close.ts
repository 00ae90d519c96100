import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LifecycleState } from './lifecycle-state.js';

/**
 * How long a stopping instance keeps its open connections before closing the idle ones. A
 * keep-alive connection looks idle to Node until the service reads the bytes already waiting on
 * it; closing it then resets a request the client sent before the stop. During this grace every
 * answer carries `Connection: close` (new requests get 503), so busy clients leave by themselves.
 */
export const IDLE_CONNECTION_GRACE_MS = 1_000;
const CONNECTIONS_CHECK_MS = 20;

/**
 * Stops the application without resetting a request that reached it: drains (readiness red,
 * new requests 503 with `Connection: close`), waits until the clients have closed their
 * connections or the grace is over, then closes (Fastify waits for the requests in flight,
 * then the pool closes).
 */
export async function closeGracefully(app: NestFastifyApplication, graceMs = IDLE_CONNECTION_GRACE_MS): Promise<void> {
  app.get(LifecycleState).draining = true;
  await connectionsClosed(app.getHttpServer() as Server, graceMs);
  await app.close();
}

async function connectionsClosed(server: Server, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && (await openConnections(server)) > 0) {
    await new Promise((resolve) => setTimeout(resolve, CONNECTIONS_CHECK_MS));
  }
}

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
