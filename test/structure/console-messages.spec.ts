import { TAX_WARNING_CODES } from '../../src/tax-engine/tax-engine.js';
import { taxBreakdownMessages } from '../../console/src/common/tax-breakdown-messages.js';
import { commonMessages } from '../../console/src/i18n/common-messages.js';
import { calculatorMessages } from '../../console/src/pages/calculator/messages.js';
import { categoriesMessages } from '../../console/src/pages/categories/messages.js';
import { dashboardMessages } from '../../console/src/pages/dashboard/messages.js';
import { fiscalGroupsMessages } from '../../console/src/pages/fiscal-groups/messages.js';
import { ordersMessages } from '../../console/src/pages/orders/messages.js';

const NAMESPACES = {
  common: commonMessages,
  dashboard: dashboardMessages,
  orders: ordersMessages,
  fiscalGroups: fiscalGroupsMessages,
  categories: categoriesMessages,
  calculator: calculatorMessages,
  taxBreakdown: taxBreakdownMessages,
};

/** Every leaf key of a message tree, dotted (i18next's plural suffixes kept as they are). */
function keysOf(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe("the console's messages", () => {
  it.each(Object.entries(NAMESPACES))('%s has the same keys in pt-BR and English', (_namespace, messages) => {
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
});
