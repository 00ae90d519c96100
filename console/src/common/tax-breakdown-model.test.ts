import { describe, expect, it } from 'vitest';
import {
  isKnownOutsideKind,
  isKnownSponsor,
  outsideInvoiceOf,
  sharesOf,
  taxRowsOf,
  thirdPartyPaymentsOf,
  totalsRowsOf,
  zeroReasonOf,
  type LineTax,
  type TaxSummary,
  type TaxTotals,
} from './tax-breakdown-model';

describe('zeroReasonOf', () => {
  it('reads Simples Nacional, a CST or CSOSN code, and keeps any other text', () => {
    expect(zeroReasonOf('SIMPLES_NACIONAL')).toEqual({ kind: 'simples' });
    expect(zeroReasonOf('CST_40')).toEqual({ kind: 'code', type: 'CST', code: '40' });
    expect(zeroReasonOf('CSOSN_102')).toEqual({ kind: 'code', type: 'CSOSN', code: '102' });
    expect(zeroReasonOf('SOMETHING_NEW')).toEqual({ kind: 'other', text: 'SOMETHING_NEW' });
    expect(zeroReasonOf(undefined)).toBeUndefined();
  });
});

describe('taxRowsOf', () => {
  const base = {
    CST_ICMS: '40',
    ICMS_rate: 0,
    ICMS_base: 10,
    ICMS_value: 0,
    CST_PIS: '01',
    PIS_rate: 1.65,
    PIS_base: 10,
    PIS_value: 0.17,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
    COFINS_base: 10,
    COFINS_value: 0.76,
    zeroReasons: { ICMS: 'CST_40' },
  } as unknown as LineTax;

  it('has ICMS, PIS and COFINS; FCP only with an FCP rate; IBS/CBS only with reform fields', () => {
    expect(taxRowsOf(base).map((row) => row.key)).toEqual(['ICMS', 'PIS', 'COFINS']);
    const full = { ...base, FCP_rate: 2, FCP_base: 10, FCP_value: 0.2, CBS_rate: 0.9, IBSCBS_base: 10, CST_IBSCBS: '000' } as LineTax;
    const rows = taxRowsOf(full);
    expect(rows.map((row) => row.key)).toEqual(['ICMS', 'FCP', 'PIS', 'COFINS', 'IBS_UF', 'IBS_Mun', 'CBS']);
    expect(rows.filter((row) => row.informative).map((row) => row.key)).toEqual(['IBS_UF', 'IBS_Mun', 'CBS']);
    expect(rows.find((row) => row.key === 'CBS')).toMatchObject({ cst: '000', base: 10, rate: 0.9 });
  });

  it("keeps the engine's figures and the reason a tax is zero", () => {
    const [icms, pis] = taxRowsOf(base);
    expect(icms).toMatchObject({ cst: '40', base: 10, rate: 0, value: 0, zeroReason: { kind: 'code', type: 'CST', code: '40' } });
    expect(pis).toMatchObject({ cst: '01', rate: 1.65, value: 0.17, zeroReason: undefined });
  });
});

describe('totalsRowsOf', () => {
  it('lists the charged totals, FCP when present, and the reform totals apart', () => {
    const totals = { base: 54, ICMS_value: 9, PIS_value: 0.68, COFINS_value: 3.12, total_tax: 12.8, CBS_value: 0.49 } as TaxTotals;
    const { charged, reform } = totalsRowsOf(totals);
    expect(charged.map(([key]) => key)).toEqual(['base', 'ICMS', 'PIS', 'COFINS']);
    expect(reform).toEqual([['CBS', 0.49]]);
    expect(totalsRowsOf({ ...totals, FCP_value: 1 }).charged.map(([key]) => key)).toEqual(['base', 'ICMS', 'FCP', 'PIS', 'COFINS']);
  });
});

describe('sharesOf', () => {
  const tax = { ICMS_base: 31.5 } as LineTax;

  it('has no rows for an item of an order without discounts, fees or charges (shown as before)', () => {
    expect(sharesOf(tax)).toEqual([]);
  });

  it("lists the item's shares and net amount in the invoice's order, a zero share included", () => {
    // Burger of 30.00: a 3.00 share of the coupon, a 4.50 share of the fee, no other charge: 30.00 − 3.00 + 4.50 + 0 = 31.50.
    const shared = { ...tax, netAmount: 31.5, otherCharges: 0, freight: 4.5, discount: 3 } as LineTax;
    expect(sharesOf(shared)).toEqual([
      ['discount', 3],
      ['freight', 4.5],
      ['otherCharges', 0],
      ['netAmount', 31.5],
    ]);
    expect(sharesOf({ ...tax, discount: 1, netAmount: 9 } as LineTax)).toEqual([
      ['discount', 1],
      ['netAmount', 9],
    ]);
  });
});

describe('totalsRowsOf with shares', () => {
  const totals = { base: 63, ICMS_value: 11.34, PIS_value: 0.85, COFINS_value: 3.92, total_tax: 16.11 } as TaxTotals;

  it('has no share rows for an order without them', () => {
    expect(totalsRowsOf(totals).shares).toEqual([]);
  });

  it("puts the sums of the shares before the base, only those present, and leaves the taxes' rows as they were", () => {
    const { shares, charged } = totalsRowsOf({ ...totals, discount: 6, freight: 9 });
    expect(shares).toEqual([
      ['discount', 6],
      ['freight', 9],
    ]);
    expect(charged.map(([key]) => key)).toEqual(['base', 'ICMS', 'PIS', 'COFINS']);
    expect(totalsRowsOf({ ...totals, otherCharges: 1.2 }).shares).toEqual([['otherCharges', 1.2]]);
  });
});

describe('outsideInvoiceOf and thirdPartyPaymentsOf', () => {
  const summary = (extra: object) => ({ totals: {}, warnings: [], ...extra }) as unknown as TaxSummary;

  it('are empty for a summary without them', () => {
    expect(outsideInvoiceOf(summary({}))).toEqual([]);
    expect(thirdPartyPaymentsOf(summary({}))).toEqual([]);
  });

  it("keep each entry's kind, amount and reason, and the payments' sponsor and description", () => {
    const outside = [
      { kind: 'DISCOUNT', amount: 5, reason: 'Paid by the platform: the store receives the full price.' },
      { kind: 'SERVICE_CHARGE', amount: 10, reason: 'At most 10 % of the lines.' },
    ];
    const payments = [
      { amount: 5, sponsor: 'PLATFORM', description: 'Platform coupon' },
      { amount: 2, sponsor: 'THIRD_PARTY' },
    ];
    expect(outsideInvoiceOf(summary({ outsideInvoice: outside }))).toEqual(outside);
    expect(thirdPartyPaymentsOf(summary({ thirdPartyPayments: payments }))).toEqual(payments);
  });

  it('leave out entries a stored payload holds in another shape, and keep a kind of a newer engine', () => {
    const outside = [null, 'DISCOUNT', { kind: 'DISCOUNT' }, { kind: 'TIP', amount: 1 }];
    expect(outsideInvoiceOf(summary({ outsideInvoice: outside }))).toEqual([{ kind: 'TIP', amount: 1, reason: '' }]);
    expect(thirdPartyPaymentsOf(summary({ thirdPartyPayments: [{ amount: '5', sponsor: 'PLATFORM' }, { amount: 5 }] }))).toEqual([]);
    expect(outsideInvoiceOf(summary({ outsideInvoice: 'DISCOUNT' }))).toEqual([]);
    expect([isKnownOutsideKind('DELIVERY_FEE'), isKnownOutsideKind('TIP')]).toEqual([true, false]);
    expect([isKnownSponsor('THIRD_PARTY'), isKnownSponsor('MERCHANT')]).toEqual([true, false]);
  });
});
