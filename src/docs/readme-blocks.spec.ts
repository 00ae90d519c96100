import { readFileSync } from 'node:fs';
import { renderReadme, replaceBlock } from './readme-blocks.js';

describe('README generated blocks', () => {
  it('match the configuration module and scripts/walkthrough.sh (run `npm run docs:readme` after changing either)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const script = readFileSync(new URL('../../scripts/walkthrough.sh', import.meta.url), 'utf8');
    expect(renderReadme(readme, script)).toBe(readme);
  });

  it('refuses a README without the markers', () => {
    expect(() => replaceBlock('no markers', 'walkthrough', 'x')).toThrow(/no walkthrough block/);
  });
});
