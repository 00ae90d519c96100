import { failed, ok, type Api } from '../support/api.js';
import { fixtureNcmTableFile } from '../support/ncm-table.js';
import { asPerson, signedInPerson } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

// The table is test/fixtures/ncm/ncm-fixture.json: a fixture (descriptions marked "[fixture]"), not the official table.
describe('the NCM table: search and descriptions (e2e)', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await bootTestApp({ NCM_TABLE_FILE: fixtureNcmTableFile() });
    api = t.apiAs(await t.tokenFor(['admin']));
  });
  afterAll(async () => {
    await t.close();
  });

  const search = (query: { q?: string; page?: number; pageSize?: number }) => api.GET('/api/admin/ncm', { params: { query } });

  it('searches by code prefix or words, accents and case ignored, paged, and says which table answered', async () => {
    const words = ok(await search({ q: 'AGUA refrig' }), 200);
    expect(words.table).toEqual({
      updatedAt: 'FIXTURE for tests, not a publication',
      act: 'FIXTURE: no act',
      sourceUrl: 'http://127.0.0.1/fixture',
      retrievedAt: '2026-12-07T00:00:00.000Z',
      codes: 8,
      fixture: expect.stringMatching(/fixture, not the official table/),
    });
    expect(words.items.map((item) => [item.code, item.status])).toEqual([
      ['22021000', 'valid'],
      ['22029100', 'expired'],
      ['22029900', 'valid'],
    ]);
    expect(words.items[0]).toEqual({
      code: '22021000',
      description: '[fixture] Refrigerantes & águas aromatizadas',
      path: ['[fixture] Bebidas, líquidos alcoólicos e vinagres.', '[fixture] Águas gaseificadas e refrigerantes, com açúcar.'],
      validFrom: '2022-04-01',
      validTo: '9999-12-31',
      status: 'valid',
    });
    expect(ok(await search({ q: '0207.1' }), 200).items.map((item) => item.code)).toEqual(['02071100', '02071400']);
    expect(ok(await search({ q: 'café' }), 200).items.map((item) => item.code)).toEqual(['09012100']);
    const paged = ok(await search({ pageSize: 3, page: 3 }), 200);
    expect(paged).toMatchObject({ total: 8, page: 3, pageSize: 3, totalPages: 3 });
    expect(paged.items.map((item) => item.code)).toEqual(['22029900', '22030000']);
    expect(failed(await search({ pageSize: 101 }), 400).error).toBe('VALIDATION_FAILED');
  });

  it('describes one code: valid, expired, or unknown; a code that is not 8 digits is a 400', async () => {
    const describe = (code: string) => api.GET('/api/admin/ncm/{code}', { params: { path: { code } } });
    expect(ok(await describe('22030000'), 200)).toEqual({
      status: 'valid',
      description: '[fixture] Cervejas de malte',
      path: ['[fixture] Bebidas, líquidos alcoólicos e vinagres.', '[fixture] Cervejas de malte.'],
      validTo: '9999-12-31',
    });
    expect(ok(await describe('22029100'), 200)).toMatchObject({ status: 'expired', validTo: '2024-03-31' });
    expect(ok(await describe('99999999'), 200)).toEqual({ status: 'unknown', description: null, path: [], validTo: null });
    expect(failed(await describe('2203'), 400).error).toBe('VALIDATION_FAILED');
  });

  it("describes a page of categories' NCMs at once, flagging an unknown or expired one", async () => {
    const described = ok(await api.GET('/api/admin/ncm/descriptions', { params: { query: { codes: '22021000,22029100,22021001' } } }), 200);
    expect(described.table?.updatedAt).toBe('FIXTURE for tests, not a publication');
    expect(described.items).toEqual([
      expect.objectContaining({ code: '22021000', status: 'valid', description: '[fixture] Refrigerantes & águas aromatizadas' }),
      expect.objectContaining({ code: '22029100', status: 'expired', description: '[fixture] Cerveja sem álcool (código encerrado)' }),
      { code: '22021001', status: 'unknown', description: null, path: [], validTo: null },
    ]);
    const tooMany = Array.from({ length: 101 }, () => '22021000').join(',');
    expect(failed(await api.GET('/api/admin/ncm/descriptions', { params: { query: { codes: tooMany } } }), 400).error).toBe(
      'VALIDATION_FAILED',
    );
    expect(failed(await api.GET('/api/admin/ncm/descriptions', { params: { query: { codes: '2202' } } }), 400).error).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('warns in an import of an NCM the table lacks or no longer holds valid, without refusing the row', async () => {
    const file = 'productId,productName,ncm\nnew-typo,X,22021001\nnew-old,Y,22029100\nnew-ok,Z,22030000\n';
    const report = await t.http.post<{ rows: Array<{ outcome: string; warnings: Array<{ code: string; column: string }> }> }>(
      '/admin/product-fiscal-categories.csv?dryRun=true',
      undefined,
      { token: await t.adminToken(), raw: file, headers: { 'content-type': 'text/csv' } },
    );
    expect(report.status).toBe(200);
    expect(report.body.rows.map((row) => [row.outcome, row.warnings.map((w) => [w.code, w.column])])).toEqual([
      ['created', [['NCM_UNKNOWN', 'ncm']]],
      ['created', [['NCM_EXPIRED', 'ncm']]],
      ['created', []],
    ]);
  });

  it('is open to support people, who look codes up', async () => {
    const support = await signedInPerson(t, 'support');
    expect((await t.http.get('/admin/ncm', { ...asPerson(support), query: { q: 'cerveja' } })).status).toBe(200);
  });
});

describe('without an NCM table (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ NCM_TABLE_FILE: '/nonexistent/ncm-table.json.gz' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts, finds nothing, and says no table is installed rather than that a code is unknown', async () => {
    const api = t.apiAs(await t.adminToken());
    expect(ok(await api.GET('/api/admin/ncm', { params: { query: { q: '2202' } } }), 200)).toEqual({
      table: null,
      items: [],
      total: 0,
      page: 1,
      pageSize: 20,
      totalPages: 0,
    });
    const described = ok(await api.GET('/api/admin/ncm/descriptions', { params: { query: { codes: '22021000' } } }), 200);
    expect(described).toEqual({
      table: null,
      items: [{ code: '22021000', status: 'no-table', description: null, path: [], validTo: null }],
    });
  });
});
