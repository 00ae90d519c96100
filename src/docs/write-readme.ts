import { readFile, writeFile } from 'node:fs/promises';
import { renderReadme } from './readme-blocks.js';

const readme = await readFile('README.md', 'utf8');
await writeFile('README.md', renderReadme(readme, await readFile('scripts/walkthrough.sh', 'utf8')));
process.stdout.write('README.md: configuration table and curl tour updated\n');
