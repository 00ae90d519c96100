import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compactOfficialTable, OFFICIAL_NCM_URL, type CompactNcmTable } from './ncm-table.js';

export const DEFAULT_NCM_TABLE_FILE = 'reference-data/ncm/ncm-table.json.gz';

export interface RefreshOptions {
  /** The official download by default; another URL or a file path (a copy saved by hand) */
  source?: string;
  /** The table file to write */
  out?: string;
  now?: Date;
  /** Most time the download may take */
  timeoutMs?: number;
}

/**
 * Reads the NCM table as Receita Federal publishes it, checks its shape, and writes it compacted (gzip'd JSON) over the
 * shipped file, atomically: a failed refresh leaves the file as it was. `npm run ncm:refresh`; see docs/ncm-table.md.
 */
export async function refreshNcmTable(options: RefreshOptions = {}): Promise<CompactNcmTable> {
  const source = options.source ?? OFFICIAL_NCM_URL;
  const bytes = /^https?:\/\//.test(source) ? await download(source, options.timeoutMs ?? 120_000) : readFileSync(source);
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON (is the portal answering a page instead of the table?)`);
  }
  const table = compactOfficialTable(document, {
    url: /^https?:\/\//.test(source) ? source : OFFICIAL_NCM_URL,
    retrievedAt: (options.now ?? new Date()).toISOString(),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
  const out = resolve(options.out ?? DEFAULT_NCM_TABLE_FILE);
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  writeFileSync(partial, gzipSync(JSON.stringify(table), { level: 9 }));
  renameSync(partial, out);
  return table;
}

async function download(url: string, timeoutMs: number): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
