import { describe, expect, it } from 'vitest';
import { diffRevisions, isEmptyDiff, type RevisionContent } from './revision-diff';

const SOFT_DRINK = {
  NCM: '22021000',
  CEST: '0300700',
  CST_ICMS: '60',
  ICMS_rate: 18,
  CST_PIS: '04',
  PIS_rate: 0.65,
  CST_COFINS: '04',
  COFINS_rate: 3,
};
const BAKERY = { NCM: '1905', CEST: '', CST_ICMS: '00', ICMS_rate: 18, CST_PIS: '01', PIS_rate: 0.65, CST_COFINS: '01', COFINS_rate: 3 };

const content = (over: Partial<RevisionContent> = {}): RevisionContent => ({
  externalId: 'ERP-1',
  name: 'Restaurants SP',
  uf: 'SP',
  taxRegime: 'LUCRO_PRESUMIDO',
  stores: [{ store_id: 's1', store_name: 'One' }],
  taxMatrix: { '22021000': SOFT_DRINK, '1905': BAKERY },
  settings: { includeIcmsInPisCofinsBase: false, deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS' },
  ...over,
});

describe('the diff of two revisions', () => {
  it('finds nothing between equal revisions, a missing optional value and null being the same', () => {
    const diff = diffRevisions(content(), content({ taxMatrix: { '22021000': { ...SOFT_DRINK, CFOP: null } as never, '1905': BAKERY } }));
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('lists each changed cell of a rule with its NCM, field, before and after, in the matrix column order', () => {
    const diff = diffRevisions(
      content(),
      content({ taxMatrix: { '22021000': { ...SOFT_DRINK, COFINS_rate: 7.6, ICMS_rate: 20, CFOP: '5405' }, '1905': BAKERY } }),
    );
    expect(diff.matrix).toEqual([
      {
        ncm: '22021000',
        kind: 'changed',
        cells: [
          { field: 'ICMS_rate', before: 18, after: 20 },
          { field: 'COFINS_rate', before: 3, after: 7.6 },
          { field: 'CFOP', before: undefined, after: '5405' },
        ],
      },
    ]);
    expect(diff.fields).toEqual([]);
    expect(diff.settings).toEqual([]);
    expect(diff.stores).toEqual([]);
  });

  it('lists a rule added and a rule removed with every cell, by NCM', () => {
    const diff = diffRevisions(content(), content({ taxMatrix: { '22021000': SOFT_DRINK, '21069090': { ...BAKERY, NCM: '21069090' } } }));
    expect(diff.matrix.map((rule) => [rule.ncm, rule.kind])).toEqual([
      ['1905', 'removed'],
      ['21069090', 'added'],
    ]);
    const removed = diff.matrix[0]!;
    // CEST '' is a value (the empty code), not an absence; NCM is the row's key, not a cell.
    expect(removed.cells.map((cell) => cell.field)).toEqual([
      'CEST',
      'CST_ICMS',
      'ICMS_rate',
      'CST_PIS',
      'PIS_rate',
      'CST_COFINS',
      'COFINS_rate',
    ]);
    expect(removed.cells.every((cell) => cell.after === undefined)).toBe(true);
    expect(diff.matrix[1]!.cells.find((cell) => cell.field === 'ICMS_rate')).toEqual({ field: 'ICMS_rate', before: undefined, after: 18 });
  });

  it('lists the group fields, the settings (an unknown one too) and the stores added, removed and renamed', () => {
    const diff = diffRevisions(
      content(),
      content({
        name: 'Restaurantes SP',
        taxRegime: null,
        stores: [
          { store_id: 's2', store_name: 'Two' },
          { store_id: 's1', store_name: 'One (Paulista)' },
        ],
        settings: { includeIcmsInPisCofinsBase: true, deliveryFeeOnInvoice: 'ALWAYS', futureSwitch: 1 } as never,
      }),
    );
    expect(diff.fields).toEqual([
      { field: 'name', before: 'Restaurants SP', after: 'Restaurantes SP' },
      { field: 'taxRegime', before: 'LUCRO_PRESUMIDO', after: null },
    ]);
    expect(diff.settings).toEqual([
      { field: 'deliveryFeeOnInvoice', before: 'WHEN_MERCHANT_DELIVERS', after: 'ALWAYS' },
      { field: 'futureSwitch', before: undefined, after: 1 },
      { field: 'includeIcmsInPisCofinsBase', before: false, after: true },
    ]);
    expect(diff.stores).toEqual([
      { storeId: 's1', kind: 'renamed', nameBefore: 'One', nameAfter: 'One (Paulista)' },
      { storeId: 's2', kind: 'added', nameAfter: 'Two' },
    ]);
    expect(diffRevisions(content({ stores: [{ store_id: 's9', store_name: '' }] }), content()).stores).toEqual([
      { storeId: 's1', kind: 'added', nameAfter: 'One' },
      { storeId: 's9', kind: 'removed', nameBefore: '' },
    ]);
  });

  it('compares a first revision with nothing: everything it holds is added', () => {
    const diff = diffRevisions(null, content());
    expect(diff.fields.map((change) => [change.field, change.before, change.after])).toEqual([
      ['name', undefined, 'Restaurants SP'],
      ['uf', undefined, 'SP'],
      ['externalId', undefined, 'ERP-1'],
      ['taxRegime', undefined, 'LUCRO_PRESUMIDO'],
    ]);
    expect(diff.matrix.map((rule) => [rule.ncm, rule.kind])).toEqual([
      ['1905', 'added'],
      ['22021000', 'added'],
    ]);
    expect(diff.stores).toEqual([{ storeId: 's1', kind: 'added', nameAfter: 'One' }]);
  });

  it('reads in either direction: the newer revision first shows the changes undone', () => {
    const older = content();
    const newer = content({ taxMatrix: { '22021000': { ...SOFT_DRINK, ICMS_rate: 20 }, '1905': BAKERY } });
    expect(diffRevisions(newer, older).matrix[0]!.cells).toEqual([{ field: 'ICMS_rate', before: 20, after: 18 }]);
  });
});
