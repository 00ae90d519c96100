import { readFile, writeFile } from 'node:fs/promises';
import { replaceConfigTable } from './config-table.js';

const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', replaceConfigTable(readme));
process.stdout.write('README.md configuration table updated\n');
