#!/usr/bin/env node
/**
 * `npm run cli -- <command>` from a checkout: builds only when a source is newer than the
 * build (a command then starts in under a second instead of five), then runs the CLI. The
 * image has no sources: there the CLI is the `order-tax-cli` command (dist/src/cli/main.js).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILT = join(ROOT, 'dist/src/cli/main.js');

function newestSource(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(BUILT) || Math.max(newestSource(join(ROOT, 'src')), newestSource(join(ROOT, 'migrations'))) > statSync(BUILT).mtimeMs;
if (stale) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [BUILT, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
