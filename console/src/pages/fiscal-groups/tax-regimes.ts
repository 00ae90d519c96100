/**
 * The tax regimes the group editor offers. The API takes any text of 1 to 50 characters as a
 * group's `taxRegime`; the tax engine reads `SIMPLES_NACIONAL`, `MEI`, `1` and `4` (any case) as
 * Simples Nacional and anything else as the normal regime. The offer is the regimes' usual names and
 * the CRT codes of the NF-e (1 Simples Nacional, 2 Simples Nacional over the sub-limit, 3 normal
 * regime, 4 MEI), each with the way the engine taxes it; any other text can still be typed.
 * No imports: the service's tests read this file to check `simples` against the engine.
 */
export const KNOWN_TAX_REGIMES = [
  { value: 'SIMPLES_NACIONAL', crt: 1, simples: true },
  { value: 'MEI', crt: 4, simples: true },
  { value: 'LUCRO_PRESUMIDO', crt: 3, simples: false },
  { value: 'LUCRO_REAL', crt: 3, simples: false },
  { value: 'REGIME_NORMAL', crt: 3, simples: false },
  { value: '1', crt: 1, simples: true },
  { value: '2', crt: 2, simples: false },
  { value: '3', crt: 3, simples: false },
  { value: '4', crt: 4, simples: true },
] as const;

export type KnownTaxRegime = (typeof KNOWN_TAX_REGIMES)[number];

/** The known regime a typed value names (trimmed, any case), if any. */
export function knownTaxRegime(value: string): KnownTaxRegime | undefined {
  const wanted = value.trim().toUpperCase();
  return KNOWN_TAX_REGIMES.find((regime) => regime.value === wanted);
}

/** Whether a regime is offered for what was typed: its name, its CRT code or its description contain it. */
export function regimeMatches(regime: KnownTaxRegime, description: string, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [regime.value, `crt ${regime.crt}`, description].some((text) => text.toLowerCase().includes(needle));
}
