import { parseArgs } from 'node:util';
import { DEFAULT_NCM_TABLE_FILE, refreshNcmTable } from './ncm-refresh.js';

// `npm run ncm:refresh [-- --source URL_OR_FILE] [-- --out FILE]`: see docs/ncm-table.md.
const { values } = parseArgs({ options: { source: { type: 'string' }, out: { type: 'string' } } });
try {
  const table = await refreshNcmTable({ source: values.source, out: values.out });
  const codes = table.entries.filter(([code]) => code.length === 8).length;
  process.stdout.write(
    `NCM table written to ${values.out ?? DEFAULT_NCM_TABLE_FILE}: ${table.version.updatedAt}, ${table.version.act}; ${codes} codes of 8 digits (sha256 ${table.source.sha256}).\n`,
  );
} catch (error) {
  process.stderr.write(`ncm:refresh failed, the table file is unchanged: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
