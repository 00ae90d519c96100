import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** Ends with `/api`. */
  baseUrl: string;
  logs: string[];
  /** Milliseconds from spawn to "service is listening". */
  startMs: number;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the built service (`node dist/src/main.js`) as a separate process, as `npm start` does. */
export async function startServiceProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const started = Date.now();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in ${timeoutMs} ms:\n${logs.join('\n')}`)), timeoutMs);
    const onLine = (line: string) => {
      logs.push(line);
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'service is listening') {
          clearTimeout(timer);
          resolve(entry.url);
        }
      } catch {
        // not a log line
      }
    };
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      lines.forEach(onLine);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${logs.join('\n')}`));
    });
  });
  const baseUrl = await listening;
  const startMs = Date.now() - started;
  return {
    child,
    baseUrl,
    logs,
    startMs,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = await once(child, 'exit');
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
