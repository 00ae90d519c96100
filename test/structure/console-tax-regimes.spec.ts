import { isSimplesNacional } from '../../src/tax-engine/default-tax-engine.js';
import { KNOWN_TAX_REGIMES, knownTaxRegime } from '../../console/src/pages/fiscal-groups/tax-regimes.js';

describe("the console's known tax regimes", () => {
  it.each(KNOWN_TAX_REGIMES.map((regime) => [regime.value, regime.simples]))(
    '%s is described as the tax engine taxes it (Simples Nacional: %s)',
    (value, simples) => {
      expect(isSimplesNacional(value)).toBe(simples);
    },
  );

  it('finds a typed regime whatever its case and blanks, and nothing for a regime it does not know', () => {
    expect(knownTaxRegime(' simples_nacional ')?.crt).toBe(1);
    expect(knownTaxRegime('ISENTO')).toBeUndefined();
  });
});
