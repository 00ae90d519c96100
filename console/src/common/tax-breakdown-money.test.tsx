import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderInConsole } from '../testing/render';
import { TaxBreakdown, type EnrichedOrderPayload } from './tax-breakdown';

/** Each row of a table as the text of its header and data cells, header row first. */
function tableText(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent ?? ''));
}

/** Money as pt-BR writes it (a no-break space after R$). */
const reais = (value: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);

/** The label/value pairs of an item's facts (its description list). */
function factsOf(region: HTMLElement): Record<string, string> {
  const list = region.querySelector('dl')!;
  return Object.fromEntries(
    Array.from(list.querySelectorAll('dt'), (term) => [term.textContent ?? '', term.nextElementSibling?.textContent ?? '']),
  );
}

/*
 * A burger of 30.00 with a cheese of 10.00, and fries of 20.00 (items 60.00, in SP, ICMS 18 %, PIS 1.65 %, COFINS 7.6 %,
 * ICMS out of the PIS/COFINS base), a store's coupon of 6.00 on the whole order and a delivery fee of 9.00 the store
 * delivers, split in proportion (the last item takes the remainder):
 *   coupon: burger 6.00 × 30/60 = 3.00, cheese 6.00 × 10/60 = 1.00, fries 6.00 − 3.00 − 1.00 = 2.00
 *   fee:    burger 9.00 × 30/60 = 4.50, cheese 9.00 × 10/60 = 1.50, fries 9.00 − 4.50 − 1.50 = 3.00
 *   net:    burger 30 − 3 + 4.50 = 31.50; cheese 10 − 1 + 1.50 = 10.50; fries 20 − 2 + 3 = 21.00
 * Burger: ICMS 31.50 × 18 % = 5.67; PIS/COFINS base 31.50 − 5.67 = 25.83; PIS 0.426195 → 0.43; COFINS 1.96308 → 1.96; 8.06.
 * A platform's discount of 5.00 stays outside the invoice, paid back to the store.
 */
const burgerTax = {
  NCM: '21069090',
  CEST: '',
  CFOP: '5102',
  CST_ICMS: '00',
  ICMS_rate: 18,
  ICMS_base: 31.5,
  ICMS_value: 5.67,
  CST_PIS: '01',
  PIS_rate: 1.65,
  PIS_base: 25.83,
  PIS_value: 0.43,
  CST_COFINS: '01',
  COFINS_rate: 7.6,
  COFINS_base: 25.83,
  COFINS_value: 1.96,
  total_tax: 8.06,
  matchedBy: 'productId',
  matchedKey: 'burger',
  zeroReasons: {},
  discount: 3,
  freight: 4.5,
  otherCharges: 0,
  netAmount: 31.5,
};

const REASON = 'A discount the platform pays: the store receives the full price, so it is in no base.';

function payload(products: unknown[], summary: object = {}): EnrichedOrderPayload {
  return {
    orderId: 'order-money',
    store: { id: 'store-1' },
    order: { products },
    taxSummary: {
      fiscalGroupId: '0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f',
      externalId: null,
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      // ICMS 5.67 + 1.89 + 3.78 = 11.34; PIS 0.43 + 0.14 + 0.28 = 0.85; COFINS 1.96 + 0.65 + 1.31 = 3.92; tax 8.06 + 2.68 + 5.37 = 16.11.
      totals: { base: 63, ICMS_value: 11.34, PIS_value: 0.85, COFINS_value: 3.92, total_tax: 16.11 },
      warnings: [],
      engineVersion: '1.2.0',
      calculatedAt: '2026-11-26T12:30:05Z',
      ...summary,
    },
  } as unknown as EnrichedOrderPayload;
}

const burger = { productId: 'burger', name: 'Burger', quantity: 1, price: { totalPrice: { total: 30 } }, tax: burgerTax };

const withMoney = payload([burger], {
  totals: { base: 63, ICMS_value: 11.34, PIS_value: 0.85, COFINS_value: 3.92, total_tax: 16.11, discount: 6, freight: 9, otherCharges: 0 },
  outsideInvoice: [{ kind: 'DISCOUNT', amount: 5, reason: REASON }],
  thirdPartyPayments: [{ amount: 5, sponsor: 'PLATFORM', description: 'Cupom da plataforma' }],
});

describe('TaxBreakdown: discounts, fees and charges', () => {
  it("shows an item's shares and net amount, the taxes on the net amount", () => {
    renderInConsole(<TaxBreakdown payload={withMoney} />);

    const line = screen.getByRole('region', { name: 'Line 1: Burger' });
    expect(factsOf(line)).toMatchObject({
      'Line amount': 'R$30.00',
      'Discount share (vDesc)': 'R$3.00',
      'Freight share (vFrete)': 'R$4.50',
      'Other charges share (vOutro)': 'R$0.00',
      'Net amount': 'R$31.50',
    });
    expect(tableText(screen.getByRole('table', { name: 'Taxes of line 1' }))[1]).toEqual(['ICMS', '00', 'R$31.50', '18 %', 'R$5.67', '—']);
  });

  it('puts the sums of the shares in the totals', () => {
    renderInConsole(<TaxBreakdown payload={withMoney} />);

    expect(tableText(screen.getByRole('table', { name: 'Document totals' }))).toEqual([
      ['Item', 'Amount'],
      ['Discounts (vDesc)', 'R$6.00'],
      ['Freight (vFrete)', 'R$9.00'],
      ['Other charges (vOutro)', 'R$0.00'],
      ['Amount of the taxed items (every CST)', 'R$63.00'],
      // Summed from the lines this payload carries (the burger alone): ICMS base 31.50, PIS/COFINS base 31.50 − 5.67 = 25.83.
      ['ICMS base (items charged ICMS)', 'R$31.50'],
      ['ICMS', 'R$11.34'],
      ['PIS base (items charged PIS)', 'R$25.83'],
      ['PIS', 'R$0.85'],
      ['COFINS base (items charged COFINS)', 'R$25.83'],
      ['COFINS', 'R$3.92'],
      ['Total tax', 'R$16.11'],
    ]);
  });

  it("lists the amounts outside the invoice with their kind and the service's reason, and the third-party payments", () => {
    renderInConsole(<TaxBreakdown payload={withMoney} />);

    const section = screen.getByRole('region', { name: 'Outside the invoice' });
    expect(tableText(within(section).getByRole('table', { name: 'Amounts outside the invoice' }))).toEqual([
      ['Kind', 'Amount', 'Reason'],
      ['Discount', 'R$5.00', REASON],
    ]);
    expect(within(section).getByText(REASON)).toHaveAttribute('lang', 'en');
    expect(tableText(within(section).getByRole('table', { name: 'Payments by third parties' }))).toEqual([
      ['Paid by', 'Amount', 'Description'],
      ['The platform', 'R$5.00', 'Cupom da plataforma'],
    ]);
  });

  it('names the kinds and sponsors in Portuguese, the reason still marked as English', async () => {
    await i18next.changeLanguage('pt-BR');
    renderInConsole(<TaxBreakdown payload={withMoney} />);

    const section = screen.getByRole('region', { name: 'Fora da nota fiscal' });
    const [, discount] = tableText(within(section).getByRole('table', { name: 'Valores fora da nota fiscal' }));
    expect(discount).toEqual(['Desconto', reais(5), REASON]);
    expect(within(section).getByText(REASON)).toHaveAttribute('lang', 'en');
    expect(within(section).getByRole('table', { name: 'Pagamentos de terceiros' })).toHaveTextContent('A plataforma');
    expect(factsOf(screen.getByRole('region', { name: 'Linha 1: Burger' }))).toMatchObject({
      'Rateio do desconto (vDesc)': reais(3),
      'Valor líquido': reais(31.5),
    });
  });

  it("says a marketplace's sponsor label in the reader's language, from its code or from an order stored without it", async () => {
    const marketplace = payload([burger], {
      outsideInvoice: [
        { kind: 'DISCOUNT', amount: 6, reason: 'PAID_BY_PLATFORM' },
        { kind: 'DISCOUNT', amount: 2, reason: 'PAID_BY_PLATFORM' },
      ],
      thirdPartyPayments: [
        {
          amount: 6,
          sponsor: 'PLATFORM',
          description: 'iFood benefit sponsored by IFOOD: Incentivo iFood',
          descriptionCode: 'SPONSORED_BY',
          descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Incentivo iFood' },
        },
        // Stored before the service wrote the code beside the description.
        { amount: 2, sponsor: 'PLATFORM', description: 'iFood benefit, sponsor unknown' },
      ],
    });
    const { unmount } = renderInConsole(<TaxBreakdown payload={marketplace} />);
    expect(tableText(screen.getByRole('table', { name: 'Payments by third parties' })).slice(1)).toEqual([
      ['The platform', 'R$6.00', 'iFood discount sponsored by iFood: Incentivo iFood'],
      ['The platform', 'R$2.00', 'iFood discount, sponsor unknown'],
    ]);
    unmount();

    await i18next.changeLanguage('pt-BR');
    renderInConsole(<TaxBreakdown payload={marketplace} />);
    expect(tableText(screen.getByRole('table', { name: 'Pagamentos de terceiros' })).slice(1)).toEqual([
      ['A plataforma', reais(6), 'Desconto iFood patrocinado por iFood: Incentivo iFood'],
      ['A plataforma', reais(2), 'Desconto iFood, patrocinador desconhecido'],
    ]);
  });

  it('shows an order without them exactly as before: no shares, no share totals, no section outside the invoice', () => {
    const { discount: _d, freight: _f, otherCharges: _o, netAmount: _n, ...plainTax } = burgerTax;
    renderInConsole(<TaxBreakdown payload={payload([{ ...burger, tax: plainTax }])} />);

    const facts = factsOf(screen.getByRole('region', { name: 'Line 1: Burger' }));
    expect(Object.keys(facts)).not.toContain('Net amount');
    expect(Object.keys(facts).filter((label) => label.includes('share'))).toEqual([]);
    expect(tableText(screen.getByRole('table', { name: 'Document totals' })).map(([item]) => item)).toEqual([
      'Item',
      'Amount of the taxed items (every CST)',
      'ICMS base (items charged ICMS)',
      'ICMS',
      'PIS base (items charged PIS)',
      'PIS',
      'COFINS base (items charged COFINS)',
      'COFINS',
      'Total tax',
    ]);
    expect(screen.queryByTestId('tax-outside-invoice')).not.toBeInTheDocument();
  });

  it('explains a reason code of the engine in the chosen language, beside the code', async () => {
    const coded = payload([burger], { outsideInvoice: [{ kind: 'DELIVERY_FEE', amount: 6.99, reason: 'DELIVERED_BY_PLATFORM' }] });
    renderInConsole(<TaxBreakdown payload={coded} />);
    expect(tableText(screen.getByRole('table', { name: 'Amounts outside the invoice' }))[1]).toEqual([
      'Delivery fee',
      'R$6.99',
      "The platform delivers: the fee is the platform's revenue, not the store's.DELIVERED_BY_PLATFORM",
    ]);
    expect(screen.queryByText('DELIVERED_BY_PLATFORM')).not.toHaveAttribute('lang');
  });

  it('shows a kind of a newer engine as the service wrote it', () => {
    renderInConsole(<TaxBreakdown payload={payload([burger], { outsideInvoice: [{ kind: 'TIP', amount: 2, reason: 'A tip.' }] })} />);

    const [, tip] = tableText(screen.getByRole('table', { name: 'Amounts outside the invoice' }));
    expect(tip).toEqual(['TIP', 'R$2.00', 'A tip.']);
    expect(screen.queryByRole('table', { name: 'Payments by third parties' })).not.toBeInTheDocument();
  });

  it('says how the amount of an item priced per unit was computed', () => {
    // 4.50 × 3 = 13.50: the amount the engine taxed, the line having no total price.
    const soda = {
      productId: 'soda',
      name: 'Soda',
      quantity: 3,
      price: { unitPrice: { total: 4.5 } },
      tax: { ...burgerTax, amountFrom: 'unitPrice×quantity' },
    };
    renderInConsole(<TaxBreakdown payload={payload([soda, burger])} />);

    expect(factsOf(screen.getByRole('region', { name: 'Line 1: Soda' }))['Line amount']).toBe('R$13.50unit price R$4.50 × quantity 3');
    // A line with its total price has no note.
    expect(factsOf(screen.getByRole('region', { name: 'Line 2: Burger' }))['Line amount']).toBe('R$30.00');
  });
});
