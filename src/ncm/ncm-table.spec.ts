import { readFileSync } from 'node:fs';
import { brazilianDate, cleanDescription, compactOfficialTable, foldForSearch, NcmTable } from './ncm-table.js';

const FIXTURE = JSON.parse(readFileSync(new URL('../../test/fixtures/ncm/ncm-fixture.json', import.meta.url), 'utf8')) as unknown;
const SOURCE = { url: 'http://127.0.0.1/fixture', retrievedAt: '2026-12-07T00:00:00.000Z', sha256: 'x' };

describe('the NCM table', () => {
  const table = new NcmTable(compactOfficialTable(FIXTURE, SOURCE));

  it('keeps the publication line and act, and every code as digits with ISO dates and descriptions without markup or dashes', () => {
    const compact = compactOfficialTable(FIXTURE, SOURCE);
    expect(compact.version).toEqual({ updatedAt: 'FIXTURE for tests, not a publication', act: 'FIXTURE: no act' });
    expect(compact.entries[3]).toEqual(['02071100', '[fixture] Não cortadas em pedaços, frescas', '2022-04-01', '9999-12-31']);
    expect(compact.entries[1]![1]).toBe('[fixture] Carnes de aves Gallus domesticus, frescas ou congeladas.');
    expect(cleanDescription('- Refrigerantes &amp; águas')).toBe('Refrigerantes & águas');
  });

  it('refuses what is not the published shape, so that a refresh never writes it', () => {
    expect(() => compactOfficialTable({ Nomenclaturas: [] }, SOURCE)).toThrow(/Data_Ultima_Atualizacao_NCM/);
    expect(() => compactOfficialTable('<html>', SOURCE)).toThrow(/Nomenclaturas/);
    const badDate = {
      Data_Ultima_Atualizacao_NCM: 'x',
      Ato: 'y',
      Nomenclaturas: [{ Codigo: '2203.00.00', Descricao: 'x', Data_Inicio: '2022-04-01' }],
    };
    expect(() => compactOfficialTable(badDate, SOURCE)).toThrow(/DD\/MM\/YYYY/);
  });

  it('describes an 8-digit code with its path and its status on a day', () => {
    expect(table.find('22021000', '2026-12-07')).toEqual({
      status: 'valid',
      leaf: {
        code: '22021000',
        description: '[fixture] Refrigerantes & águas aromatizadas',
        path: ['[fixture] Bebidas, líquidos alcoólicos e vinagres.', '[fixture] Águas gaseificadas e refrigerantes, com açúcar.'],
        validFrom: '2022-04-01',
        validTo: '9999-12-31',
      },
    });
    expect(table.find('22029100', '2026-12-07')?.status).toBe('expired');
    expect(table.find('22029100', '2024-03-31')?.status).toBe('valid');
    expect(table.find('22021000', '2022-03-31')?.status).toBe('not-yet-valid');
    expect(table.find('22029900', '2026-12-07')?.leaf.path).toEqual([
      '[fixture] Bebidas, líquidos alcoólicos e vinagres.',
      '[fixture] Águas gaseificadas e refrigerantes, com açúcar.',
      '[fixture] Outras:',
    ]);
    // Not in the table: neither a chapter nor a position is a product's NCM.
    expect(table.find('22000000', '2026-12-07')).toBeUndefined();
    expect(table.find('2202', '2026-12-07')).toBeUndefined();
  });

  it('searches by code prefix, dots allowed, and by the start of words of the description or its path, ignoring accents and case', () => {
    const codes = (query: string) => table.search(query, 0, 50).items.map((leaf) => leaf.code);
    expect(codes('2202')).toEqual(['22021000', '22029100', '22029900']);
    expect(codes('2202.1')).toEqual(['22021000']);
    expect(codes('AGUAS')).toEqual(['22021000', '22029100', '22029900']);
    expect(codes('refrig agua')).toEqual(['22021000', '22029100', '22029900']);
    expect(codes('refrigerantes aromatizadas')).toEqual(['22021000']);
    expect(codes('cafe')).toEqual(['09012100']);
    expect(codes('pedacos congelados')).toEqual(['02071400']);
    expect(codes('2202 outras')).toEqual(['22029100', '22029900']);
    expect(codes('nada disso')).toEqual([]);
    // A word inside another word is no match: "gua" is not the start of a word.
    expect(codes('gua')).toEqual([]);
  });

  it('pages the search and counts every match', () => {
    expect(table.search('', 0, 3)).toMatchObject({ total: 8, items: [{ code: '02071100' }, { code: '02071400' }, { code: '09012100' }] });
    expect(table.search('', 6, 3).items.map((leaf) => leaf.code)).toEqual(['22029900', '22030000']);
  });

  it('folds text for search and dates a moment on the Brazilian calendar', () => {
    expect(foldForSearch('Águas, Café-Torrado')).toBe('aguas cafe torrado');
    // 02:00 UTC on the 8th is still the 7th in São Paulo (UTC−3).
    expect(brazilianDate(new Date('2026-12-08T02:00:00Z'))).toBe('2026-12-07');
  });
});
