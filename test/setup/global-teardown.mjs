import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export default async function globalTeardown() {
  await globalThis.__embeddedPostgres?.stop();
  const dir = globalThis.__embeddedPostgresDir;
  if (dir) await rm(dirname(dir), { recursive: true, force: true });
}
