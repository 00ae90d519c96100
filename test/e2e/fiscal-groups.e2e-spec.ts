import { expectDeclaredError } from '../support/declared-errors.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/admin/fiscal-groups';

const RULES = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  '22021000': {
    NCM: '22021000',
    CEST: '0300700',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '04',
    PIS_rate: 0.65,
    CST_COFINS: '04',
    COFINS_rate: 3,
  },
  '1905': { NCM: '1905', CEST: '', CST_ICMS: '00', ICMS_rate: 7.0001, CST_PIS: '01', PIS_rate: 1.65, CST_COFINS: '01', COFINS_rate: 7.6 },
};

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

function groupBody(overrides: Record<string, unknown> = {}) {
  return {
    externalId: unique('ext'),
    name: 'Restaurants SP',
    uf: 'SP',
    taxRegime: 'LUCRO_PRESUMIDO',
    stores: [{ store_id: unique('store'), store_name: 'Paulista' }],
    taxMatrix: RULES,
    ...overrides,
  };
}

describe('fiscal groups (e2e)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (body: unknown) => t.http.post(BASE, body, { token });

  describe('POST', () => {
    it('creates a group and answers 201 with exactly the FiscalGroup fields', async () => {
      const body = groupBody();
      const response = await create(body);
      expect(response.status).toBe(201);
      expect(Object.keys(response.body).sort()).toEqual(
        ['createdAt', 'externalId', 'id', 'name', 'settings', 'stores', 'taxMatrix', 'taxRegime', 'uf', 'updatedAt'].sort(),
      );
      expect(response.body).toMatchObject({
        externalId: body.externalId,
        name: 'Restaurants SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: body.stores,
      });
      expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
      expect(response.body.settings).toEqual({ includeIcmsInPisCofinsBase: false });
      // Rates come back exactly as sent (no binary drift such as 7.000099999).
      expect(response.body.taxMatrix).toEqual(RULES);
      const raw = await t.http.get(`${BASE}/${response.body.id}`, { token });
      expect(raw.text).toContain('"ICMS_rate":7.0001');
    });

    it('accepts a minimal group (no externalId, no taxRegime, empty matrix) and a lower-case uf', async () => {
      const response = await create({ name: 'Minimal', uf: 'rj', stores: [{ store_id: unique('store'), store_name: '' }], taxMatrix: {} });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ externalId: null, taxRegime: null, uf: 'RJ', taxMatrix: {} });
    });

    it('stores the optional settings and reform fields', async () => {
      const matrix = {
        '22030000': {
          ...RULES['22021000'],
          NCM: '22030000',
          CST_IBSCBS: '000',
          cClassTrib: '000001',
          IBS_UF_rate: 0.1,
          IBS_Mun_rate: 0,
          CBS_rate: 0.9,
        },
      };
      const response = await create(groupBody({ taxMatrix: matrix, settings: { includeIcmsInPisCofinsBase: true } }));
      expect(response.status).toBe(201);
      expect(response.body.settings).toEqual({ includeIcmsInPisCofinsBase: true });
      expect(response.body.taxMatrix).toEqual(matrix);
    });

    const badBodies: Array<[string, Record<string, unknown>, string]> = [
      ['missing name', { name: undefined }, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['missing uf', { uf: undefined }, 'uf'],
      ['an unknown uf', { uf: 'XX' }, 'uf'],
      ['missing stores', { stores: undefined }, 'stores'],
      ['empty stores', { stores: [] }, 'stores'],
      ['a store without store_id', { stores: [{ store_name: 'x' }] }, 'stores.0.store_id'],
      ['a blank store_id', { stores: [{ store_id: '  ', store_name: 'x' }] }, 'stores.0.store_id'],
      ['a store_id with surrounding spaces', { stores: [{ store_id: ' s1 ', store_name: 'x' }] }, 'stores.0.store_id'],
      [
        'a store listed twice',
        {
          stores: [
            { store_id: 'dup', store_name: 'a' },
            { store_id: 'dup', store_name: 'b' },
          ],
        },
        'stores.1.store_id',
      ],
      ['missing taxMatrix', { taxMatrix: undefined }, 'taxMatrix'],
      ['a taxMatrix that is an array', { taxMatrix: [] }, 'taxMatrix'],
      ['an NCM key of 9 digits', { taxMatrix: { '220210001': { ...RULES['22021000'], NCM: '220210001' } } }, 'taxMatrix.220210001'],
      ['an NCM different from its key', { taxMatrix: { '22021000': { ...RULES['22021000'], NCM: '22029000' } } }, 'taxMatrix.22021000.NCM'],
      ['a CEST of 5 digits', { taxMatrix: { '22021000': { ...RULES['22021000'], CEST: '03007' } } }, 'taxMatrix.22021000.CEST'],
      ['a CST_ICMS of 4 digits', { taxMatrix: { '22021000': { ...RULES['22021000'], CST_ICMS: '0000' } } }, 'taxMatrix.22021000.CST_ICMS'],
      ['a CST_PIS of 3 digits', { taxMatrix: { '22021000': { ...RULES['22021000'], CST_PIS: '001' } } }, 'taxMatrix.22021000.CST_PIS'],
      [
        'a CST_COFINS of 1 digit',
        { taxMatrix: { '22021000': { ...RULES['22021000'], CST_COFINS: '1' } } },
        'taxMatrix.22021000.CST_COFINS',
      ],
      ['a rate over 100', { taxMatrix: { '22021000': { ...RULES['22021000'], ICMS_rate: 180 } } }, 'taxMatrix.22021000.ICMS_rate'],
      ['a rate with 5 decimals', { taxMatrix: { '22021000': { ...RULES['22021000'], PIS_rate: 0.65001 } } }, 'taxMatrix.22021000.PIS_rate'],
      ['a negative rate', { taxMatrix: { '22021000': { ...RULES['22021000'], COFINS_rate: -3 } } }, 'taxMatrix.22021000.COFINS_rate'],
      ['a CFOP of 5 digits', { taxMatrix: { '22021000': { ...RULES['22021000'], CFOP: '51020' } } }, 'taxMatrix.22021000.CFOP'],
      [
        'a cClassTrib of 3 digits',
        { taxMatrix: { '22021000': { ...RULES['22021000'], cClassTrib: '000' } } },
        'taxMatrix.22021000.cClassTrib',
      ],
      [
        'a missing rule field',
        { taxMatrix: { '22021000': { NCM: '22021000', CEST: '', CST_ICMS: '00', ICMS_rate: 18, CST_PIS: '01', PIS_rate: 1 } } },
        'taxMatrix.22021000.CST_COFINS',
      ],
      ['an unknown rule property', { taxMatrix: { '22021000': { ...RULES['22021000'], IPI_rate: 5 } } }, 'taxMatrix.22021000.IPI_rate'],
      ['settings of the wrong type', { settings: { includeIcmsInPisCofinsBase: 'yes' } }, 'settings.includeIcmsInPisCofinsBase'],
      ['an unknown property', { color: 'blue' }, 'color'],
      ['externalId of the wrong type', { externalId: 42 }, 'externalId'],
    ];

    it.each(badBodies)('answers 400 naming the field for %s', async (_label, overrides, field) => {
      const response = await create(groupBody(overrides));
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
      expect(typeof response.body.message).toBe('string');
      expect(response.body.details.map((detail: { field: string }) => detail.field)).toContain(field);
    });

    it('names every bad field of one request in one 400', async () => {
      const response = await create(
        groupBody({ uf: 'ZZ', name: '', taxMatrix: { '22021000': { ...RULES['22021000'], ICMS_rate: 101, CST_PIS: 'x' } } }),
      );
      expect(response.status).toBe(400);
      const fields = response.body.details.map((detail: { field: string }) => detail.field);
      expect(fields).toEqual(expect.arrayContaining(['uf', 'name', 'taxMatrix.22021000.ICMS_rate', 'taxMatrix.22021000.CST_PIS']));
      expect(response.body.message).toContain('taxMatrix.22021000.ICMS_rate');
    });

    it('answers 400 for a body that is not an object', async () => {
      expect((await create([1, 2])).status).toBe(400);
    });

    it('answers 409 naming the store and the other group when a store is already held', async () => {
      const first = await create(groupBody());
      const storeId = first.body.stores[0].store_id;
      const second = await create(groupBody({ stores: [{ store_id: storeId, store_name: 'again' }] }));
      expect(second.status).toBe(409);
      expect(second.body.error).toBe('STORE_IN_ANOTHER_GROUP');
      expect(second.body.message).toBe(`store "${storeId}" already belongs to fiscal group ${first.body.id} ("${first.body.name}")`);
      expect(second.body.details).toEqual([
        { field: 'stores', problem: second.body.message, storeId, fiscalGroupId: first.body.id, fiscalGroupName: first.body.name },
      ]);
      expectDeclaredError('POST', '/api/admin/fiscal-groups', second);
      const count = await t.dataSource.query('SELECT count(*)::int AS n FROM fiscal_group WHERE name = $1', ['Restaurants SP']);
      expect(count[0].n).toBeGreaterThan(0);
    });

    it('lets exactly one of 10 concurrent creates claim the same store', async () => {
      const storeId = unique('contested');
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          create(groupBody({ name: `Race ${index}`, stores: [{ store_id: storeId, store_name: 'x' }] })),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(9);
      const owners = await t.dataSource.query('SELECT count(*)::int AS n FROM fiscal_group_store WHERE store_id = $1', [storeId]);
      expect(owners[0].n).toBe(1);
      const groups = await t.dataSource.query("SELECT count(*)::int AS n FROM fiscal_group WHERE name LIKE 'Race %'");
      expect(groups[0].n).toBe(1);
    });

    it('answers 409 for a duplicate externalId', async () => {
      const first = await create(groupBody());
      const second = await create(groupBody({ externalId: first.body.externalId }));
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        error: 'EXTERNAL_ID_IN_USE',
        message: `externalId "${first.body.externalId}" is already used by fiscal group ${first.body.id}`,
        details: [
          {
            field: 'externalId',
            problem: 'is already used by another fiscal group',
            externalId: first.body.externalId,
            fiscalGroupId: first.body.id,
          },
        ],
      });
      expectDeclaredError('POST', '/api/admin/fiscal-groups', second);
    });
  });

  describe('GET, PUT, DELETE by id', () => {
    it('gets a group by id, 404 for an unknown id, 400 for a non-UUID id', async () => {
      const created = await create(groupBody());
      const found = await t.http.get(`${BASE}/${created.body.id}`, { token });
      expect(found.status).toBe(200);
      expect(found.body).toEqual(created.body);
      const missing = await t.http.get(`${BASE}/00000000-0000-4000-8000-000000000000`, { token });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('NOT_FOUND');
      const bad = await t.http.get(`${BASE}/not-a-uuid`, { token });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('VALIDATION_FAILED');
    });

    it('updates only the properties sent', async () => {
      const created = await create(groupBody());
      const updated = await t.http.put(`${BASE}/${created.body.id}`, { name: 'Renamed', taxRegime: 'LUCRO_REAL' }, { token });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        name: 'Renamed',
        taxRegime: 'LUCRO_REAL',
        uf: 'SP',
        externalId: created.body.externalId,
        stores: created.body.stores,
        taxMatrix: RULES,
      });
      expect(updated.body.createdAt).toBe(created.body.createdAt);
      expect(new Date(updated.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.body.updatedAt).getTime());
    });

    it('replaces the whole matrix and the whole store list when they are sent', async () => {
      const created = await create(groupBody());
      const newStore = unique('store');
      const matrix = { '22030000': { ...RULES['22021000'], NCM: '22030000' } };
      const updated = await t.http.put(
        `${BASE}/${created.body.id}`,
        { taxMatrix: matrix, stores: [{ store_id: newStore, store_name: 'New' }] },
        { token },
      );
      expect(updated.status).toBe(200);
      expect(updated.body.taxMatrix).toEqual(matrix);
      expect(updated.body.stores).toEqual([{ store_id: newStore, store_name: 'New' }]);
      // The old store is free again; the new one resolves to this group.
      const oldStore = created.body.stores[0].store_id;
      expect((await t.http.get(`${BASE}/by-store/${oldStore}`, { token })).status).toBe(404);
      expect((await t.http.get(`${BASE}/by-store/${newStore}`, { token })).body.id).toBe(created.body.id);
      expect((await create(groupBody({ stores: [{ store_id: oldStore, store_name: 'reuse' }] }))).status).toBe(201);
    });

    it('keeps its own stores on an update that resends them, and refuses another group store with 409', async () => {
      const a = await create(groupBody());
      const b = await create(groupBody());
      expect((await t.http.put(`${BASE}/${a.body.id}`, { stores: a.body.stores }, { token })).status).toBe(200);
      const stolen = await t.http.put(`${BASE}/${a.body.id}`, { stores: [...a.body.stores, b.body.stores[0]] }, { token });
      expect(stolen.status).toBe(409);
      expect(stolen.body).toMatchObject({
        error: 'STORE_IN_ANOTHER_GROUP',
        details: [{ field: 'stores', storeId: b.body.stores[0].store_id, fiscalGroupId: b.body.id, fiscalGroupName: b.body.name }],
      });
      expectDeclaredError('PUT', '/api/admin/fiscal-groups/{id}', stolen);
      // Nothing changed on the refused update.
      expect((await t.http.get(`${BASE}/${a.body.id}`, { token })).body.stores).toEqual(a.body.stores);
    });

    it('validates updates like creates, and 404s an unknown id', async () => {
      const created = await create(groupBody());
      const bad = await t.http.put(`${BASE}/${created.body.id}`, { uf: 'XX', taxMatrix: { '1': RULES['1905'] } }, { token });
      expect(bad.status).toBe(400);
      expect(bad.body.details.map((detail: { field: string }) => detail.field)).toEqual(expect.arrayContaining(['uf', 'taxMatrix.1']));
      expect((await t.http.put(`${BASE}/00000000-0000-4000-8000-000000000000`, { name: 'x' }, { token })).status).toBe(404);
      expect((await t.http.put(`${BASE}/nope`, { name: 'x' }, { token })).status).toBe(400);
    });

    it('deletes with 204 and no body, then 404; releases the stores', async () => {
      const created = await create(groupBody());
      const deleted = await t.http.delete(`${BASE}/${created.body.id}`, { token });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      expect((await t.http.delete(`${BASE}/${created.body.id}`, { token })).status).toBe(404);
      expect((await t.http.delete(`${BASE}/xyz`, { token })).status).toBe(400);
      expect((await t.http.get(`${BASE}/by-store/${created.body.stores[0].store_id}`, { token })).status).toBe(404);
    });
  });

  describe('GET list and by-store', () => {
    it('pages newest first and filters by uf and storeId', async () => {
      const uf = 'TO';
      const made = [];
      for (let index = 0; index < 3; index++) made.push((await create(groupBody({ uf, name: `Tocantins ${index}` }))).body);
      const page1 = await t.http.get(BASE, { token, query: { uf, pageSize: 2 } });
      expect(page1.status).toBe(200);
      expect(page1.body).toMatchObject({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
      expect(page1.body.items.map((group: { id: string }) => group.id)).toEqual([made[2].id, made[1].id]);
      const page2 = await t.http.get(BASE, { token, query: { uf, pageSize: 2, page: 2 } });
      expect(page2.body.items.map((group: { id: string }) => group.id)).toEqual([made[0].id]);
      const byStore = await t.http.get(BASE, { token, query: { storeId: made[1].stores[0].store_id } });
      expect(byStore.body.total).toBe(1);
      expect(byStore.body.items[0].id).toBe(made[1].id);
      const none = await t.http.get(BASE, { token, query: { storeId: 'nobody-has-this' } });
      expect(none.body).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
    });

    it.each([
      ['page 0', { page: 0 }],
      ['a page that is not a number', { page: 'x' }],
      ['pageSize 101', { pageSize: 101 }],
      ['an unknown uf', { uf: 'QQ' }],
      ['an unknown query parameter', { color: 'red' }],
    ])('answers 400 for %s', async (_label, query) => {
      const response = await t.http.get(BASE, { token, query: query as Record<string, string> });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
    });

    it('resolves the group of a store', async () => {
      const created = await create(groupBody());
      const found = await t.http.get(`${BASE}/by-store/${encodeURIComponent(created.body.stores[0].store_id)}`, { token });
      expect(found.status).toBe(200);
      expect(found.body.id).toBe(created.body.id);
    });
  });

  describe('tax matrix CSV', () => {
    it('exports and re-imports the identical matrix', async () => {
      const created = await create(groupBody());
      const exported = await t.http.get(`${BASE}/${created.body.id}/tax-matrix.csv`, { token });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(exported.text.split('\r\n')).toHaveLength(Object.keys(RULES).length + 2);

      await t.http.put(`${BASE}/${created.body.id}`, { taxMatrix: {} }, { token });
      const imported = await t.http.put(`${BASE}/${created.body.id}/tax-matrix`, undefined, {
        token,
        raw: exported.text,
        headers: { 'content-type': 'text/csv' },
      });
      expect(imported.status).toBe(200);
      expect(imported.body.taxMatrix).toEqual(RULES);
      expect((await t.http.get(`${BASE}/${created.body.id}`, { token })).body.taxMatrix).toEqual(RULES);
    });

    it('changes nothing when one row is bad, and names the line', async () => {
      const created = await create(groupBody());
      const csv = [
        'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate',
        '22030000,,60,18,04,0,04,0',
        '22021000,,60,118,04,0,04,0',
      ].join('\n');
      const response = await t.http.put(`${BASE}/${created.body.id}/tax-matrix`, undefined, {
        token,
        raw: csv,
        headers: { 'content-type': 'text/csv' },
      });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'line 3 ICMS_rate', problem: expect.stringMatching(/0 to 100/) }]);
      expect((await t.http.get(`${BASE}/${created.body.id}`, { token })).body.taxMatrix).toEqual(RULES);
    });

    it('names the line a record starts on in a CRLF spreadsheet export with a multi-line quoted cell, and refuses bad quoting', async () => {
      const created = await create(groupBody());
      const put = (raw: string) =>
        t.http.put(`${BASE}/${created.body.id}/tax-matrix`, undefined, { token, raw, headers: { 'content-type': 'text/csv' } });
      const header = '\uFEFFNCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;CFOP';
      const multiLine = await put(
        [header, '21069090;"";"00";"18";01;"0,65";01;3;"51\r\n02"', '', '22030000;;60;"118,5";04;0;04;0;5405', ''].join('\r\n'),
      );
      expect(multiLine.status).toBe(400);
      expect(multiLine.body.details.map((detail: { field: string }) => detail.field)).toEqual(['line 2 CFOP', 'line 5 ICMS_rate']);

      const badQuote = await put([header, '21069090;;00;18;01;0,65;01;3;"51"02', ''].join('\r\n'));
      expect(badQuote.status).toBe(400);
      expect(badQuote.body.details).toEqual([{ field: 'line 2', problem: expect.stringMatching(/after the closing quote/) }]);
      expect((await t.http.get(`${BASE}/${created.body.id}`, { token })).body.taxMatrix).toEqual(RULES);
    });

    it('refuses a JSON body on the CSV route and CSV on the JSON routes', async () => {
      const created = await create(groupBody());
      const json = await t.http.put(`${BASE}/${created.body.id}/tax-matrix`, { a: 1 }, { token });
      expect(json.status).toBe(415);
      const csvOnJson = await t.http.post(BASE, undefined, { token, raw: 'NCM\n1', headers: { 'content-type': 'text/csv' } });
      expect(csvOnJson.status).toBe(415);
    });

    it('404s the CSV routes of an unknown group', async () => {
      const id = '00000000-0000-4000-8000-000000000000';
      expect((await t.http.get(`${BASE}/${id}/tax-matrix.csv`, { token })).status).toBe(404);
      const csv = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\n22030000,,60,18,04,0,04,0\n';
      expect(
        (await t.http.put(`${BASE}/${id}/tax-matrix`, undefined, { token, raw: csv, headers: { 'content-type': 'text/csv' } })).status,
      ).toBe(404);
    });
  });

  it('requires the admin scope', async () => {
    const ordersOnly = await t.tokenFor(['orders']);
    expect((await t.http.get(BASE, { token: ordersOnly })).status).toBe(403);
  });
});
