import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/database/embedded-postgres.js';
import { eventually } from './eventually.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Ends with `/api`. */
  baseUrl: string;
  port: number;
  logs: string[];
  /** Milliseconds from spawn to the first 200 of /api/health/ready. */
  startMs: number;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the built service (`node dist/src/main.js`, as `npm start` does) on a free port, and waits until it is ready. */
export async function startServiceProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const started = Date.now();
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    logs.push(...lines);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  // A service that dies in the middle of a test leaves only ECONNREFUSED behind: say why it died.
  let ready = false;
  let stopping = false;
  child.on('close', (code, signal) => {
    if (!ready || stopping || signal === 'SIGKILL') return;
    process.stderr.write(
      `[service on port ${port} exited unexpectedly: ${code ?? signal}] last log lines:\n${[...logs, buffered].slice(-60).join('\n')}\n`,
    );
  });

  const baseUrl = `http://127.0.0.1:${port}/api`;
  // Ready, or exited: either ends the wait.
  const settled = await eventually(
    async () =>
      child.exitCode !== null ||
      (await fetch(`${baseUrl}/health/ready`).then(
        (response) => response.ok,
        () => false,
      )),
    { timeoutMs, intervalMs: 50 },
  ).catch(() => false);
  if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode} before it was ready:\n${logs.join('\n')}`);
  if (!settled) {
    child.kill('SIGKILL');
    throw new Error(`service not ready in ${timeoutMs} ms:\n${logs.join('\n')}`);
  }
  ready = true;
  return {
    child,
    baseUrl,
    port,
    logs,
    startMs: Date.now() - started,
    stop: async (signal = 'SIGTERM') => {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      // 'close', not 'exit': the last log lines may still be in the pipe when the process has exited.
      const [code] = await once(child, 'close');
      return code as number | null;
    },
  };
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
