import { Worker } from 'node:worker_threads';
import type { Deadline } from '../common/deadline.js';
import type { ImpactWorkerData, ImpactWorkerReply, ImpactWorkerRequest } from './impact-worker-messages.js';

/**
 * The built worker script. Under the tests' TypeScript transform this module is `src/…/*.ts`, which a worker
 * thread cannot load: it runs the build of the same file (the test setup builds first).
 */
function workerScript(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/src/fiscal-impact/impact-worker.js', import.meta.url)
    : new URL('./impact-worker.js', import.meta.url);
}

/**
 * One preview's worker thread, asked one thing at a time. Each answer is awaited at most until the
 * preview's deadline: past it the thread is ended where it stands (a starved low-priority thread may not
 * even get to check a clock) and the deadline's error is thrown.
 */
export class ImpactWorkerThread {
  private readonly worker: Worker;
  private failure: Error | undefined;
  private waiting: { resolve: (reply: ImpactWorkerReply) => void; reject: (error: unknown) => void } | undefined;

  constructor(
    data: ImpactWorkerData,
    private readonly deadline: Deadline,
  ) {
    this.worker = new Worker(workerScript(), { workerData: data });
    this.worker.on('message', (reply: ImpactWorkerReply) => this.settle((waiting) => waiting.resolve(reply)));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the impact preview's worker thread ended (exit code ${code})`)));
  }

  async ask<Type extends ImpactWorkerReply['type']>(
    request: ImpactWorkerRequest,
    expected: Type,
  ): Promise<Extract<ImpactWorkerReply, { type: Type }>> {
    if (this.failure) throw this.failure;
    const answer = new Promise<ImpactWorkerReply>((resolve, reject) => (this.waiting = { resolve, reject }));
    this.worker.postMessage(request);
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.deadline.exceeded()), Math.max(0, this.deadline.remainingMs()));
    });
    try {
      const reply = await Promise.race([answer, expiry]);
      if (reply.type !== expected) throw new Error(`the impact preview's worker answered ${reply.type}, not ${expected}`);
      return reply as Extract<ImpactWorkerReply, { type: Type }>;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the thread, whatever it is doing. */
  async end(): Promise<void> {
    this.failure ??= new Error("the impact preview's worker thread was ended");
    this.waiting = undefined;
    await this.worker.terminate();
  }

  private settle(action: (waiting: NonNullable<ImpactWorkerThread['waiting']>) => void): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) action(waiting);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.settle((waiting) => waiting.reject(error));
  }
}
