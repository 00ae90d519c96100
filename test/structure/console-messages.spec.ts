import { OUTSIDE_INVOICE_REASONS } from '../../src/tax-engine/invoice-shares.js';
import { ORDER_AMOUNT_KINDS, TAX_WARNING_CODES } from '../../src/tax-engine/tax-engine.js';
import { taxBreakdownMessages } from '../../console/src/common/tax-breakdown-messages.js';
import { namespaces } from '../../console/src/i18n/namespaces.js';
import { problemMessages } from '../../console/src/i18n/problem-messages.js';
import { DOMAIN_ERROR_CODES, GENERIC_ERROR_CODES } from '../../src/common/errors/error-codes.js';

/** Every leaf key of a message tree, dotted (i18next's plural suffixes kept as they are). */
function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe("the console's messages", () => {
  it.each(Object.entries(namespaces))('%s has the same keys in pt-BR and English', (_namespace, messages) => {
    const english = keysOf(messages.en).sort();
    const portuguese = keysOf(messages['pt-BR']).sort();
    expect(portuguese.filter((key) => !english.includes(key))).toEqual([]);
    expect(english.filter((key) => !portuguese.includes(key))).toEqual([]);
  });

  it("explains every warning code of the tax engine in both languages (the service's own sentence is English)", () => {
    for (const language of ['en', 'pt-BR'] as const) {
      const explained = Object.keys(taxBreakdownMessages[language].warningText).sort();
      expect([language, explained]).toEqual([language, [...TAX_WARNING_CODES].sort()]);
    }
  });

  it('explains every reason and names every kind of an amount kept outside the invoice, in both languages', () => {
    for (const language of ['en', 'pt-BR'] as const) {
      const { reasons, kinds } = taxBreakdownMessages[language].outside;
      expect([language, Object.keys(reasons).sort()]).toEqual([language, [...OUTSIDE_INVOICE_REASONS].sort()]);
      expect([language, Object.keys(kinds).sort()]).toEqual([language, [...ORDER_AMOUNT_KINDS].sort()]);
    }
  });
});

describe("the console's words for the service's error codes", () => {
  it('says every code of the admin API in both languages (the service sends its sentence in English only)', () => {
    const codes = [...GENERIC_ERROR_CODES, ...DOMAIN_ERROR_CODES].sort();
    for (const language of ['en', 'pt-BR'] as const)
      expect([language, Object.keys(problemMessages[language].codes).sort()]).toEqual([language, codes]);
  });
});

describe("the console's pt-BR about people", () => {
  /** Every pt-BR message, dotted key and text. */
  function portugueseTexts(): [string, string][] {
    const texts: [string, string][] = [];
    const walk = (tree: object, prefix: string) => {
      for (const [key, value] of Object.entries(tree)) {
        if (typeof value === 'object' && value !== null) walk(value as object, `${prefix}${key}.`);
        else texts.push([`${prefix}${key}`, String(value)]);
      }
    };
    for (const [namespace, messages] of Object.entries(namespaces)) walk(messages['pt-BR'], `${namespace}:`);
    return texts;
  }

  it('never makes a participle agree with a person the console cannot know the gender of', () => {
    // "{{name}} foi convidada", "Conectado como {{name}}", "você está conectado": the console knows no person's gender,
    // so messages about a person are phrased without an agreeing participle or adjective.
    const agreeing = /\{\{(name|current)\}\} (foi|está|é|ficou) \p{L}+[ao]s?\b|\b(conectad|convidad|logad)[oa]s?\b/iu;
    expect(portugueseTexts().filter(([, text]) => agreeing.test(text))).toEqual([]);
  });
});
