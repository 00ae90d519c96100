import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { renderInConsole } from '../testing/render';
import { TaxBreakdown, type EnrichedOrderPayload } from './tax-breakdown';
import { warningTarget } from './tax-breakdown-model';

/** Each row of a table as the text of its header and data cells, header row first. */
function tableText(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent ?? ''));
}

const HEADER = ['Tax', 'CST / CSOSN', 'Base', 'Rate', 'Value', 'Zero reason'];

/*
 * Line 1, an X-Burger of R$ 50.00 (5000 cents), normal regime, ICMS 18 % with a 2 % FCP:
 *   ICMS   = 5000 × 18 %                 = 900 cents (R$ 9.00)
 *   FCP    = 5000 × 2 %                  = 100 cents (R$ 1.00)
 *   PIS    = (5000 − 900) × 1.65 % = 67.65 → 68 cents (R$ 0.68), ICMS out of the PIS/COFINS base
 *   COFINS = (5000 − 900) × 7.6 %  = 311.6 → 312 cents (R$ 3.12)
 *   total  = 900 + 100 + 68 + 312        = 1380 cents (R$ 13.80)
 * Its modifier 1.1, bacon of R$ 4.00 (400 cents): ICMS exempt (CST 40), PIS and COFINS at rate zero (CST 06): 0 cents.
 * Line 2, a soft drink of R$ 6.00: its NCM has no rule, so it has no tax and one warning.
 * Totals: base 5000 + 400 = 5400 cents (R$ 54.00, the untaxed line is not in it); total tax 1380 + 0 = 1380 cents.
 */
const burgerTax = {
  NCM: '21069090',
  CEST: '1704700',
  CFOP: '5102',
  CST_ICMS: '00',
  ICMS_rate: 18,
  ICMS_base: 50,
  ICMS_value: 9,
  FCP_rate: 2,
  FCP_base: 50,
  FCP_value: 1,
  CST_PIS: '01',
  PIS_rate: 1.65,
  PIS_base: 41,
  PIS_value: 0.68,
  CST_COFINS: '01',
  COFINS_rate: 7.6,
  COFINS_base: 41,
  COFINS_value: 3.12,
  total_tax: 13.8,
  matchedBy: 'productId',
  matchedKey: 'burger-1',
  zeroReasons: {},
};
const baconTax = {
  NCM: '16010000',
  CEST: '',
  CFOP: null,
  CST_ICMS: '40',
  ICMS_rate: 0,
  ICMS_base: 0,
  ICMS_value: 0,
  CST_PIS: '06',
  PIS_rate: 0,
  PIS_base: 0,
  PIS_value: 0,
  CST_COFINS: '06',
  COFINS_rate: 0,
  COFINS_base: 0,
  COFINS_value: 0,
  total_tax: 0,
  matchedBy: 'externalProductId',
  matchedKey: 'ext-bacon',
  zeroReasons: { ICMS: 'CST_40', PIS: 'CST_06', COFINS: 'CST_06' },
};

function payload(products: unknown[], summary: Partial<EnrichedOrderPayload['taxSummary']> = {}): EnrichedOrderPayload {
  return {
    orderId: 'order-1',
    store: { id: 'store-1' },
    order: { products },
    taxSummary: {
      fiscalGroupId: '0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f',
      externalId: null,
      uf: 'SP',
      taxRegime: '3',
      totals: { base: 54, ICMS_value: 9, FCP_value: 1, PIS_value: 0.68, COFINS_value: 3.12, total_tax: 13.8 },
      warnings: [],
      engineVersion: '4',
      calculatedAt: '2026-11-23T12:30:05Z',
      ...summary,
    },
  } as unknown as EnrichedOrderPayload;
}

const order = payload(
  [
    {
      productId: 'burger-1',
      name: 'X-Burger',
      quantity: 2,
      price: { totalPrice: { total: 50 } },
      tax: burgerTax,
      modifierGroups: [{ selectedModifiers: [{ productId: 'bacon', name: 'Bacon', price: { totalPrice: { total: 4 } }, tax: baconTax }] }],
    },
    { productId: 'soda-1', name: 'Soft drink', quantity: 1, price: { totalPrice: { total: 6 } } },
  ],
  {
    warnings: [
      { code: 'NCM_NOT_IN_MATRIX', path: 'order.products[1]', message: 'NCM 22021000 of product soda-1 has no rule' },
      { code: 'NO_PRODUCTS', path: 'order', message: 'a warning about the whole order' },
    ],
  },
);

describe('warningTarget', () => {
  it("reads the line, and the modifier's group and index, of a warning's path", () => {
    expect(warningTarget('order.products[2]')).toEqual({ line: 2 });
    expect(warningTarget('order.products[12].price.totalPrice.total')).toEqual({ line: 12 });
    expect(warningTarget('order.products[0].modifierGroups[1].selectedModifiers[3]')).toEqual({ line: 0, group: 1, modifier: 3 });
  });

  it('names no line for a warning about the whole order', () => {
    expect(warningTarget('order')).toBeUndefined();
    expect(warningTarget('order.products')).toBeUndefined();
    expect(warningTarget('products[1]')).toBeUndefined();
  });
});

describe('TaxBreakdown', () => {
  it('shows each tax of a line as the engine wrote it, FCP included since the rule has one', () => {
    renderInConsole(<TaxBreakdown payload={order} />);

    expect(tableText(screen.getByRole('table', { name: 'Taxes of line 1' }))).toEqual([
      HEADER,
      ['ICMS', '00', 'R$50.00', '18 %', 'R$9.00', '—'],
      ['FCP', '—', 'R$50.00', '2 %', 'R$1.00', '—'],
      ['PIS', '01', 'R$41.00', '1.65 %', 'R$0.68', '—'],
      ['COFINS', '01', 'R$41.00', '7.6 %', 'R$3.12', '—'],
      // The footer: one cell spans the CST, base and rate columns.
      ['Total tax', '', 'R$13.80', ''],
    ]);
  });

  it('shows a zero tax with its reason, read from the CST code, and no FCP row when the rule has no FCP', () => {
    renderInConsole(<TaxBreakdown payload={order} />);

    expect(tableText(screen.getByRole('table', { name: 'Taxes of line 1, modifier 1.1' }))).toEqual([
      HEADER,
      ['ICMS', '40', 'R$0.00', '0 %', 'R$0.00', 'CST 40'],
      ['PIS', '06', 'R$0.00', '0 %', 'R$0.00', 'CST 06'],
      ['COFINS', '06', 'R$0.00', '0 %', 'R$0.00', 'CST 06'],
      ['Total tax', '', 'R$0.00', ''],
    ]);
    expect(screen.getByRole('heading', { name: 'Modifier 1.1: Bacon' })).toBeInTheDocument();
  });

  it('shows the facts of a line and says when a line was not taxed', () => {
    renderInConsole(<TaxBreakdown payload={order} />);

    const burger = screen.getByRole('region', { name: 'Line 1: X-Burger' });
    const facts = within(burger)
      .getAllByRole('definition')
      .slice(0, 8)
      .map((value) => value.textContent);
    // Product id, quantity, line amount, NCM, CEST, CFOP, matched by, matrix key.
    expect(facts).toEqual(['burger-1', '2', 'R$50.00', '21069090', '1704700', '5102', 'product id', 'burger-1']);

    const soda = screen.getByRole('region', { name: 'Line 2: Soft drink' });
    expect(within(soda).getByText('Not taxed (see the warnings).')).toBeInTheDocument();
    expect(within(soda).queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the document totals, FCP included', () => {
    renderInConsole(<TaxBreakdown payload={order} />);

    expect(tableText(screen.getByRole('table', { name: 'Document totals' }))).toEqual([
      ['Item', 'Amount'],
      ['Amount of the taxed items (every CST)', 'R$54.00'],
      // The bases of the items charged each tax: the burger's (ICMS 50.00, PIS/COFINS 41.00); the CST 40/06 item adds nothing.
      ['ICMS base (items charged ICMS)', 'R$50.00'],
      ['ICMS', 'R$9.00'],
      ['FCP', 'R$1.00'],
      ['PIS base (items charged PIS)', 'R$41.00'],
      ['PIS', 'R$0.68'],
      ['COFINS base (items charged COFINS)', 'R$41.00'],
      ['COFINS', 'R$3.12'],
      ['Total tax', 'R$13.80'],
    ]);
  });

  it("shows the tax reform's IBS and CBS apart, as informative, with the base reduction and Simples Nacional reasons", () => {
    /*
     * R$ 50.00 (5000 cents) under Simples Nacional: ICMS, PIS and COFINS are paid through the DAS (0 cents here);
     * ICMS base reduced by 33.33 %: 5000 × (1 − 0.3333) = 3333.5 → 3334 cents (R$ 33.34).
     * Reform (informative): CBS 5000 × 0.9 % = 45 cents; IBS state 5000 × 0.1 % = 5 cents; IBS municipal 0 %.
     */
    const simples = {
      ...burgerTax,
      CST_ICMS: '102',
      ICMS_base_reduction: 33.33,
      ICMS_base: 33.34,
      ICMS_value: 0,
      FCP_rate: undefined,
      FCP_base: undefined,
      FCP_value: undefined,
      CST_PIS: '49',
      PIS_base: 0,
      PIS_value: 0,
      CST_COFINS: '49',
      COFINS_base: 0,
      COFINS_value: 0,
      total_tax: 0,
      zeroReasons: { ICMS: 'SIMPLES_NACIONAL', PIS: 'SIMPLES_NACIONAL', COFINS: 'CSOSN_102' },
      CST_IBSCBS: '000',
      cClassTrib: '000001',
      IBSCBS_base: 50,
      CBS_rate: 0.9,
      CBS_value: 0.45,
      IBS_UF_rate: 0.1,
      IBS_UF_value: 0.05,
      IBS_Mun_rate: 0,
      IBS_Mun_value: 0,
    };
    const reformOrder = payload([{ productId: 'burger-1', name: 'X-Burger', price: { totalPrice: { total: 50 } }, tax: simples }], {
      totals: {
        base: 50,
        ICMS_value: 0,
        PIS_value: 0,
        COFINS_value: 0,
        total_tax: 0,
        IBSCBS_base: 50,
        CBS_value: 0.45,
        IBS_UF_value: 0.05,
        IBS_Mun_value: 0,
      },
    });

    renderInConsole(<TaxBreakdown payload={reformOrder} />);

    const simplesReason = 'Simples Nacional (paid through the DAS)';
    expect(tableText(screen.getByRole('table', { name: 'Taxes of line 1' }))).toEqual([
      HEADER,
      ['ICMS', '102', 'R$33.34base reduced by 33.33 %', '18 %', 'R$0.00', simplesReason],
      ['PIS', '49', 'R$0.00', '1.65 %', 'R$0.00', simplesReason],
      ['COFINS', '49', 'R$0.00', '7.6 %', 'R$0.00', 'CSOSN 102'],
      ['IBS (state) (informative)', '000', 'R$50.00', '0.1 %', 'R$0.05', '—'],
      ['IBS (municipal) (informative)', '000', 'R$50.00', '0 %', 'R$0.00', '—'],
      ['CBS (informative)', '000', 'R$50.00', '0.9 %', 'R$0.45', '—'],
      ['Total tax', '', 'R$0.00', ''],
    ]);
    expect(tableText(screen.getByRole('table', { name: 'Document totals' }))).toEqual([
      ['Item', 'Amount'],
      ['Amount of the taxed items (every CST)', 'R$50.00'],
      // Simples Nacional and CSOSN 102: no item is charged ICMS, PIS or COFINS on the invoice, so every such base is 0.
      ['ICMS base (items charged ICMS)', 'R$0.00'],
      ['ICMS', 'R$0.00'],
      ['PIS base (items charged PIS)', 'R$0.00'],
      ['PIS', 'R$0.00'],
      ['COFINS base (items charged COFINS)', 'R$0.00'],
      ['COFINS', 'R$0.00'],
      ['Total tax', 'R$0.00'],
      ['Tax reform (IBS/CBS), informative, not in the total tax'],
      ['IBS/CBS base', 'R$50.00'],
      ['IBS (state)', 'R$0.05'],
      ['IBS (municipal)', 'R$0.00'],
      ['CBS', 'R$0.45'],
    ]);
  });

  it("explains each warning by its code, beside the service's English sentence, and takes the user to the line it names", async () => {
    const user = userEvent.setup();
    renderInConsole(<TaxBreakdown payload={order} />);

    const warnings = within(screen.getByTestId('tax-warnings')).getAllByRole('listitem');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toHaveTextContent("The product's NCM has no rule in the fiscal group's tax matrix (nor a prefix of it).");
    expect(within(warnings[0]!).getByText('NCM 22021000 of product soda-1 has no rule')).toHaveAttribute('lang', 'en');
    expect(warnings[1]).toHaveTextContent('The whole order');
    expect(within(warnings[1]!).queryByRole('link')).not.toBeInTheDocument();

    await user.click(within(warnings[0]!).getByRole('link', { name: 'Go to line 2' }));

    expect(screen.getByRole('region', { name: 'Line 2: Soft drink' })).toHaveFocus();
    expect(window.location.hash).toBe('#tax-line-1');
  });

  it("explains the warnings in Portuguese, the service's sentence still marked as English", async () => {
    await i18next.changeLanguage('pt-BR');
    renderInConsole(<TaxBreakdown payload={order} />);

    const warning = within(screen.getByTestId('tax-warnings')).getAllByRole('listitem')[0]!;
    expect(warning).toHaveTextContent('O NCM do produto não tem regra na matriz tributária do grupo fiscal (nem um prefixo dele).');
    expect(within(warning).getByText('NCM 22021000 of product soda-1 has no rule')).toHaveAttribute('lang', 'en');
    expect(within(warning).getByRole('link', { name: 'Ir para a linha 2' })).toBeInTheDocument();
  });

  it('draws the first 50 lines of a long order and the rest on demand', async () => {
    const user = userEvent.setup();
    const lines = Array.from({ length: 51 }, (_, index) => ({ productId: `p${index + 1}`, name: `Item ${index + 1}` }));
    renderInConsole(<TaxBreakdown payload={payload(lines)} />);

    expect(screen.getAllByText(/^Line \d+: Item/)).toHaveLength(50);
    expect(screen.getByText('Showing 50 of 51 lines.')).toBeInTheDocument();

    // 51 − 50 = 1 line left.
    await user.click(screen.getByRole('button', { name: 'Show 1 more lines' }));

    expect(screen.getAllByText(/^Line \d+: Item/)).toHaveLength(51);
    expect(screen.getByRole('heading', { name: 'Line 51: Item 51' })).toBeInTheDocument();
  });
});
