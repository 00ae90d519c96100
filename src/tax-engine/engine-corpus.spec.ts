import { readFileSync, writeFileSync } from 'node:fs';
import { CORPUS, CORPUS_NOW } from '../../test/fixtures/engine-corpus/cases.js';
import { DefaultTaxEngine } from './default-tax-engine.js';

/**
 * Orders without discounts, fees or service charges get exactly the answer the engine gave before
 * order-level amounts existed, byte for byte, `engineVersion` aside. `ENGINE_CORPUS_WRITE=1` rewrites
 * the expected answers (only ever from an engine known to be right).
 */
const EXPECTED = new URL('../../test/fixtures/engine-corpus/expected.json', import.meta.url);
const engine = new DefaultTaxEngine();

const answerOf = (index: number): string => {
  const { group, categories, payload } = CORPUS[index]!;
  const { payload: enriched } = engine.enrich({ group, categories, payload, now: CORPUS_NOW });
  const { engineVersion: _version, ...summary } = enriched.taxSummary as Record<string, unknown>;
  return JSON.stringify({ ...enriched, taxSummary: summary });
};

if (process.env.ENGINE_CORPUS_WRITE === '1') {
  const answers = Object.fromEntries(CORPUS.map((corpusCase, index) => [corpusCase.name, answerOf(index)]));
  writeFileSync(EXPECTED, `${JSON.stringify(answers, null, 1)}\n`);
}
const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as Record<string, string>;

describe('engine corpus: orders without order-level amounts', () => {
  it('has an expected answer for every case, and no other', () => {
    expect(Object.keys(expected).sort()).toEqual(CORPUS.map((corpusCase) => corpusCase.name).sort());
  });

  it.each(CORPUS.map((corpusCase, index) => [corpusCase.name, index] as const))('%s', (name, index) => {
    expect(answerOf(index)).toBe(expected[name]);
  });
});
