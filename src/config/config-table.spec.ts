import { readFileSync } from 'node:fs';
import { replaceConfigTable } from './config-table.js';

describe('README configuration table', () => {
  it('matches the configuration module (run `npm run docs:config` after changing a variable)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(replaceConfigTable(readme)).toBe(readme);
  });
});
