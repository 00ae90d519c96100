import { NFE_PROBLEM_CODES } from '../../src/fiscal-documents/nfe/nfe-layout.js';
import { invoiceMessages } from '../../console/src/pages/orders/invoice/invoice-messages.js';

describe("the console's invoice items", () => {
  it('explain every reason an order cannot be printed, in both languages', () => {
    for (const language of ['en', 'pt-BR'] as const) {
      const explained = Object.keys(invoiceMessages[language].notIssuable.codes).sort();
      expect([language, explained]).toEqual([language, [...NFE_PROBLEM_CODES].sort()]);
    }
  });
});
