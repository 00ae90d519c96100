import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/database/embedded-postgres.js';
import { developmentClientToken, HttpClient } from '../test/support/http.js';

export { parentPid, processCpuMs, processTreeCpuMs } from '../test/support/process-cpu.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildServer {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** The node flags of `npm start` (the checkout's package.json), so that benchmarks run a service as it runs in production. */
export function startScriptNodeArgs(root = PROJECT_ROOT): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  return start.split(' ').filter((part) => part.startsWith('--'));
}

/**
 * Starts the service as `npm start` does, on a free port, and waits until /api/health/ready answers 200.
 * `root` runs another built checkout instead (a benchmark comparing two commits side by side).
 */
export async function startService(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  root = PROJECT_ROOT,
  onStdoutLine?: (line: string) => void,
): Promise<ChildServer> {
  const port = await freePort();
  const server = await startChild(
    'dist/src/main.js',
    { ...env, PORT: String(port), HOST: '127.0.0.1' },
    [],
    false,
    [...startScriptNodeArgs(root), ...nodeArgs],
    root,
    onStdoutLine,
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/api/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { ...server, url };
    if (Date.now() > deadline || server.child.exitCode !== null) throw new Error('the service did not become ready');
    await new Promise((done) => setTimeout(done, 200));
  }
}

/**
 * Starts a node script; with `announces`, waits for it to print `LISTENING <url>`. A script that does not announce
 * itself has its output read line by line by `onStdoutLine` (node's `--trace-gc-nvp` writes there), or discarded.
 */
export async function startChild(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
  announces = true,
  nodeArgs: string[] = [],
  root = PROJECT_ROOT,
  onStdoutLine?: (line: string) => void,
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!announces) {
    if (onStdoutLine) createInterface({ input: child.stdout! }).on('line', onStdoutLine);
    else child.stdout!.resume();
    return { child, url: '', stop: () => stopChild(child) };
  }
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        const plain = /^LISTENING (\S+)/.exec(line);
        if (plain) {
          clearTimeout(timer);
          resolve(plain[1]!);
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  child.stdout!.resume();
  return { child, url, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The highest resident set size a process has had so far (`VmHWM`, Linux), in MiB. */
export function processPeakRssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kilobytes = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Math.round(Number(kilobytes) / 1024);
  } catch {
    return undefined;
  }
}

export function formatMs(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/** A bearer token of the development client, which a development start creates. */
export function developmentToken(serviceUrl: string): Promise<string> {
  return developmentClientToken(new HttpClient(`${serviceUrl}/api`));
}
