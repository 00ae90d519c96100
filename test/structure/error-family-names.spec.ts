import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The error families are named for what they are (the admin API's body, the channel configuration's, the OAuth
 * shape, the point of sale's), never by a letter: a reader of the OpenAPI document, a comment or a test title
 * should not need a key to decode them. docs/errors.md alone gives the letters the interface specification uses.
 */
const LETTERED_FAMILY = /\bErrors? [A-D]\b(?!-)|\bErrors? A(–| to )D\b/;
const MAPPING = 'docs/errors.md';
const THIS_FILE = 'test/structure/error-family-names.spec.ts';

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', 'src', 'test', 'console/src', 'bench', 'scripts', 'docs', 'README.md', 'openapi.json'], {
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => /\.(ts|tsx|mjs|js|json|md)$/.test(file) && file !== MAPPING && file !== THIS_FILE);
}

describe('error families have names, not letters', () => {
  it('recognises a lettered family (the check below can fail)', () => {
    expect(LETTERED_FAMILY.test("it('answers 404 in Error A shape')")).toBe(true);
    expect(LETTERED_FAMILY.test('the four shapes, Error A–D')).toBe(true);
    expect(LETTERED_FAMILY.test('answers 404 in the admin-API error shape')).toBe(false);
  });

  it('no source, test, document or OpenAPI text calls a family by its letter', () => {
    const found: string[] = [];
    for (const file of trackedFiles()) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (LETTERED_FAMILY.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });
});
