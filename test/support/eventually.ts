/** How long `eventually` keeps trying, and what it is waiting for (named in the timeout's message). */
export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
  what?: string;
}

/**
 * The one way tests wait for something asynchronous (a NOTIFY, a background job, a process's log line):
 * `check` is retried until it returns without throwing and is not `false`; its value is returned.
 * On timeout the last error is thrown, or an error naming `what`.
 */
export async function eventually<T>(check: () => T | Promise<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const { timeoutMs = 15_000, intervalMs = 25, what = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
      failure = new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    } catch (error) {
      failure = error;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}
