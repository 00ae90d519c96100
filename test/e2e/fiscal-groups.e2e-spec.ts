import { Like } from 'typeorm';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { failed, ok, type Api, type ErrorBody, type QueryOf, type Schemas } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { loadCommittedOpenApi } from '../support/openapi-routes.js';
import { groupBody, RULES, unique, type Group, type NewGroup } from '../support/fiscal-groups.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/admin/fiscal-groups';

describe('fiscal groups (e2e)', () => {
  let t: TestApp;
  let token: string;
  let api: Api;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
    api = t.apiAs(token);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (body: NewGroup) => api.POST('/api/admin/fiscal-groups', { body });
  const created = async (body: NewGroup = groupBody()): Promise<Group> => ok(await create(body), 201);
  /** Bodies outside the schema: sent raw, the answer read as the documented error body. */
  const createRaw = (body: unknown) => t.http.post<ErrorBody>(BASE, body, { token });
  const byId = (id: string) => api.GET('/api/admin/fiscal-groups/{id}', { params: { path: { id } } });
  const update = (id: string, body: Schemas['UpdateFiscalGroupDto']) =>
    api.PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id } }, body });
  const byStore = (storeId: string) => api.GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId } } });

  describe('POST', () => {
    it('creates a group and answers 201 with exactly the FiscalGroup fields', async () => {
      const body = groupBody();
      const response = await created(body);
      expect(Object.keys(response).sort()).toEqual(
        [
          'createdAt',
          'externalId',
          'id',
          'name',
          'revision',
          'scheduled',
          'settings',
          'stores',
          'taxMatrix',
          'taxRegime',
          'uf',
          'updatedAt',
        ].sort(),
      );
      expect(response).toMatchObject({
        externalId: body.externalId,
        name: 'Restaurants SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: body.stores,
      });
      expect(response.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(response.createdAt).toISOString()).toBe(response.createdAt);
      expect(response.settings).toEqual({
        includeIcmsInPisCofinsBase: false,
        platformDiscountsReduceBase: false,
        deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
        serviceChargeInIcmsBase: false,
      });
      // Rates come back exactly as sent (no binary drift such as 7.000099999).
      expect(response.taxMatrix).toEqual(RULES);
      // The JSON text itself: read raw.
      const raw = await t.http.get(`${BASE}/${response.id}`, { token });
      expect(raw.text).toContain('"ICMS_rate":7.0001');
    });

    it('accepts a minimal group (no externalId, no taxRegime, empty matrix) and a lower-case uf', async () => {
      // A lower-case uf is outside the schema's enum but accepted: sent raw.
      const response = await t.http.post<Group>(
        BASE,
        { name: 'Minimal', uf: 'rj', stores: [{ store_id: unique('store'), store_name: '' }], taxMatrix: {} },
        { token },
      );
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
      const response = await created(groupBody({ taxMatrix: matrix, settings: { includeIcmsInPisCofinsBase: true } }));
      expect(response.settings).toMatchObject({ includeIcmsInPisCofinsBase: true });
      expect(response.taxMatrix).toEqual(matrix);
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
      const response = await createRaw({ ...groupBody(), ...overrides });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
      expect(typeof response.body.message).toBe('string');
      expect(response.body.details?.map((detail) => detail.field)).toContain(field);
    });

    it('names every bad field of one request in one 400', async () => {
      const response = await createRaw({
        ...groupBody(),
        uf: 'ZZ',
        name: '',
        taxMatrix: { '22021000': { ...RULES['22021000'], ICMS_rate: 101, CST_PIS: 'x' } },
      });
      expect(response.status).toBe(400);
      const fields = response.body.details?.map((detail) => detail.field);
      expect(fields).toEqual(expect.arrayContaining(['uf', 'name', 'taxMatrix.22021000.ICMS_rate', 'taxMatrix.22021000.CST_PIS']));
      expect(response.body.message).toContain('taxMatrix.22021000.ICMS_rate');
    });

    it('answers 400 for a body that is not an object', async () => {
      expect((await createRaw([1, 2])).status).toBe(400);
    });

    it('answers 409 naming the store and the other group when a store is already held', async () => {
      const first = await created();
      const storeId = first.stores[0]!.store_id;
      const second = failed(await create(groupBody({ stores: [{ store_id: storeId, store_name: 'again' }] })), 409);
      expect(second.error).toBe('STORE_IN_ANOTHER_GROUP');
      expect(second.message).toBe(`store "${storeId}" already belongs to fiscal group ${first.id} ("${first.name}")`);
      expect(second.details).toEqual([
        { field: 'stores', problem: second.message, storeId, fiscalGroupId: first.id, fiscalGroupName: first.name },
      ]);
      expectDeclaredError('POST', '/api/admin/fiscal-groups', { status: 409, body: second });
      expect(await t.dataSource.getRepository(FiscalGroupEntity).countBy({ name: 'Restaurants SP' })).toBeGreaterThan(0);
    });

    it('lets exactly one of 10 concurrent creates claim the same store', async () => {
      const storeId = unique('contested');
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          create(groupBody({ name: `Race ${index}`, stores: [{ store_id: storeId, store_name: 'x' }] })),
        ),
      );
      const statuses = responses.map(({ response }) => response.status).sort();
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(9);
      expect(await t.dataSource.getRepository(FiscalGroupStoreEntity).countBy({ storeId })).toBe(1);
      expect(await t.dataSource.getRepository(FiscalGroupEntity).countBy({ name: Like('Race %') })).toBe(1);
    });

    it('answers 409 for a duplicate externalId', async () => {
      const first = await created();
      const second = failed(await create(groupBody({ externalId: first.externalId ?? undefined })), 409);
      expect(second).toEqual({
        error: 'EXTERNAL_ID_IN_USE',
        message: `externalId "${first.externalId}" is already used by fiscal group ${first.id}`,
        details: [
          {
            field: 'externalId',
            problem: 'is already used by another fiscal group',
            externalId: first.externalId,
            fiscalGroupId: first.id,
          },
        ],
      });
      expectDeclaredError('POST', '/api/admin/fiscal-groups', { status: 409, body: second });
    });
  });

  describe('GET, PUT, DELETE by id', () => {
    it('gets a group by id, 404 for an unknown id, 400 for a non-UUID id', async () => {
      const group = await created();
      expect(ok(await byId(group.id), 200)).toEqual(group);
      expect(failed(await byId('00000000-0000-4000-8000-000000000000'), 404).error).toBe('NOT_FOUND');
      expect(failed(await byId('not-a-uuid'), 400).error).toBe('VALIDATION_FAILED');
    });

    it('updates only the properties sent', async () => {
      const group = await created();
      const updated = ok(await update(group.id, { name: 'Renamed', taxRegime: 'LUCRO_REAL' }), 200);
      expect(updated).toMatchObject({
        name: 'Renamed',
        taxRegime: 'LUCRO_REAL',
        uf: 'SP',
        externalId: group.externalId,
        stores: group.stores,
        taxMatrix: RULES,
      });
      expect(updated.createdAt).toBe(group.createdAt);
      expect(new Date(updated.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(group.updatedAt).getTime());
    });

    it('replaces the whole matrix and the whole store list when they are sent', async () => {
      const group = await created();
      const newStore = unique('store');
      const matrix = { '22030000': { ...RULES['22021000'], NCM: '22030000' } };
      const updated = ok(await update(group.id, { taxMatrix: matrix, stores: [{ store_id: newStore, store_name: 'New' }] }), 200);
      expect(updated.taxMatrix).toEqual(matrix);
      expect(updated.stores).toEqual([{ store_id: newStore, store_name: 'New' }]);
      // The old store is free again; the new one resolves to this group.
      const oldStore = group.stores[0]!.store_id;
      failed(await byStore(oldStore), 404);
      expect(ok(await byStore(newStore), 200).id).toBe(group.id);
      await created(groupBody({ stores: [{ store_id: oldStore, store_name: 'reuse' }] }));
    });

    it('keeps its own stores on an update that resends them, and refuses another group store with 409', async () => {
      const a = await created();
      const b = await created();
      ok(await update(a.id, { stores: a.stores }), 200);
      const stolen = failed(await update(a.id, { stores: [...a.stores, b.stores[0]!] }), 409);
      expect(stolen).toMatchObject({
        error: 'STORE_IN_ANOTHER_GROUP',
        details: [{ field: 'stores', storeId: b.stores[0]!.store_id, fiscalGroupId: b.id, fiscalGroupName: b.name }],
      });
      expectDeclaredError('PUT', '/api/admin/fiscal-groups/{id}', { status: 409, body: stolen });
      // Nothing changed on the refused update.
      expect(ok(await byId(a.id), 200).stores).toEqual(a.stores);
    });

    it('validates updates like creates, and 404s an unknown id', async () => {
      const group = await created();
      // A uf outside the schema's enum: sent raw.
      const bad = await t.http.put<ErrorBody>(`${BASE}/${group.id}`, { uf: 'XX', taxMatrix: { '1': RULES['1905'] } }, { token });
      expect(bad.status).toBe(400);
      expect(bad.body.details?.map((detail) => detail.field)).toEqual(expect.arrayContaining(['uf', 'taxMatrix.1']));
      failed(await update('00000000-0000-4000-8000-000000000000', { name: 'x' }), 404);
      failed(await update('nope', { name: 'x' }), 400);
    });

    it('answers 400 naming a property the group cannot be without when it is sent as null, and null clears the optional ones', async () => {
      const group = await created();
      for (const field of ['name', 'uf', 'stores', 'taxMatrix']) {
        // null is outside the update schema: sent raw.
        const refused = await t.http.put<ErrorBody>(`${BASE}/${group.id}`, { [field]: null }, { token });
        expect([refused.status, refused.body.error]).toEqual([400, 'VALIDATION_FAILED']);
        expect(new Set(refused.body.details?.map((detail) => detail.field))).toEqual(new Set([field]));
      }
      expect(ok(await byId(group.id), 200)).toEqual(group);
      const cleared = await t.http.put<Group>(`${BASE}/${group.id}`, { externalId: null, taxRegime: null }, { token });
      expect([cleared.status, cleared.body.externalId, cleared.body.taxRegime]).toEqual([200, null, null]);
    });

    it('deletes with 204 and no body, then 404; releases the stores', async () => {
      const group = await created();
      const remove = (id: string) => api.DELETE('/api/admin/fiscal-groups/{id}', { params: { path: { id } } });
      const deleted = await remove(group.id);
      ok(deleted, 204);
      expect(await deleted.response.text()).toBe('');
      failed(await remove(group.id), 404);
      failed(await remove('xyz'), 400);
      failed(await byStore(group.stores[0]!.store_id), 404);
    });
  });

  describe('GET list and by-store', () => {
    it('pages newest first and filters by uf and storeId', async () => {
      const uf = 'TO';
      const made: Group[] = [];
      for (let index = 0; index < 3; index++) made.push(await created(groupBody({ uf, name: `Tocantins ${index}` })));
      const list = async (query: QueryOf<'/api/admin/fiscal-groups'>) =>
        ok(await api.GET('/api/admin/fiscal-groups', { params: { query } }), 200);
      const page1 = await list({ uf, pageSize: 2 });
      expect(page1).toMatchObject({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
      expect(page1.items.map((group) => group.id)).toEqual([made[2]!.id, made[1]!.id]);
      const page2 = await list({ uf, pageSize: 2, page: 2 });
      expect(page2.items.map((group) => group.id)).toEqual([made[0]!.id]);
      const ofStore = await list({ storeId: made[1]!.stores[0]!.store_id });
      expect(ofStore.total).toBe(1);
      expect(ofStore.items[0]!.id).toBe(made[1]!.id);
      expect(await list({ storeId: 'nobody-has-this' })).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
    });

    it.each([
      ['page 0', { page: 0 }],
      ['a page that is not a number', { page: 'x' }],
      ['pageSize 101', { pageSize: 101 }],
      ['an unknown uf', { uf: 'QQ' }],
      ['an unknown query parameter', { color: 'red' }],
    ])('answers 400 for %s', async (_label, query) => {
      // Queries outside the schema: sent raw.
      const response = await t.http.get<ErrorBody>(BASE, { token, query });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
    });

    it('keeps the old lookup by store for one release, deprecated and pointing at the list filtered by the store', async () => {
      const group = await created();
      const storeId = group.stores[0]!.store_id;
      const answer = await byStore(storeId);
      expect(ok(answer, 200).id).toBe(group.id);
      // RFC 9745: 2026-12-07T00:00:00Z as seconds since the epoch; RFC 8594: six months later.
      expect(answer.response.headers.get('deprecation')).toBe('@1796601600');
      expect(answer.response.headers.get('sunset')).toBe('Mon, 07 Jun 2027 00:00:00 GMT');
      expect(answer.response.headers.get('link')).toBe(`</api/admin/fiscal-groups?storeId=${storeId}>; rel="successor-version"`);
      const documented = loadCommittedOpenApi().paths['/api/admin/fiscal-groups/by-store/{storeId}']!['get']!;
      expect(documented.deprecated).toBe(true);
      expect(Object.keys(documented.responses['200']!.headers ?? {})).toEqual(['Deprecation', 'Sunset', 'Link']);
    });
  });

  it('requires the admin scope', async () => {
    const ordersOnly = t.apiAs(await t.tokenFor(['orders']));
    failed(await ordersOnly.GET('/api/admin/fiscal-groups'), 403);
  });
});
