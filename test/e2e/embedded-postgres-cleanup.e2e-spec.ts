import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';

/** Each embedded data directory once left an empty `pg-<hash>` folder in the system temp directory. */
describe('the embedded PostgreSQL leaves nothing in the temp directory (e2e)', () => {
  it('removes its socket directory when it stops', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'pg-cleanup-'));
    const dataDir = join(directory, 'postgres');
    const socketDir = join(tmpdir(), `pg-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12)}`);
    const database = new EmbeddedPostgres({ dataDir });
    try {
      await database.start();
      expect(existsSync(socketDir)).toBe(true);
    } finally {
      await database.stop();
      rmSync(directory, { recursive: true, force: true });
    }
    expect(existsSync(socketDir)).toBe(false);
  }, 60_000);
});
