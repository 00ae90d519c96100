import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compactOfficialTable } from '../../src/ncm/ncm-table.js';

/**
 * A table file made from test/fixtures/ncm/ncm-fixture.json (a fixture, not the official table: its descriptions are
 * marked `[fixture]`), as `npm run ncm:refresh` writes one; pass it as NCM_TABLE_FILE.
 */
export function fixtureNcmTableFile(): string {
  const official = JSON.parse(readFileSync(new URL('../fixtures/ncm/ncm-fixture.json', import.meta.url), 'utf8')) as unknown;
  const table = {
    ...compactOfficialTable(official, { url: 'http://127.0.0.1/fixture', retrievedAt: '2026-12-07T00:00:00.000Z', sha256: 'fixture' }),
    fixture: 'test/fixtures/ncm/ncm-fixture.json: a test fixture, not the official table',
  };
  const file = join(mkdtempSync(join(tmpdir(), 'ncm-table-')), 'ncm-table.json.gz');
  writeFileSync(file, gzipSync(JSON.stringify(table)));
  return file;
}
