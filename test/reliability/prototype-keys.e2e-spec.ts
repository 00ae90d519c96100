import type { ErrorBody, Schemas } from '../support/api.js';
import { fiscalMatrix, orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * Keys named like Object.prototype members (`constructor`, `toString`,
 * `hasOwnProperty`, `__proto__`, ...) are keys like any other: unknown ones get the
 * documented 400, in bodies, query strings, tax matrices and CSV headers; none reaches
 * (or changes) a prototype.
 */

const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'isPrototypeOf', '__defineGetter__'];

describe('prototype-named keys', () => {
  let t: TestApp;
  let token: string;
  const storeId = unique('proto-store');

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.adminToken();
    await seedFiscalData(t.http, token, storeId);
  });
  afterAll(() => t.close());

  const group = (taxMatrix: unknown) => ({
    name: 'Proto group',
    uf: 'SP',
    stores: [{ store_id: unique('proto'), store_name: 'x' }],
    taxMatrix,
  });
  // JSON text, so that `__proto__` is sent as an own key (an object literal would set the prototype).
  const withKey = (base: Record<string, unknown>, key: string, value: unknown) =>
    `${JSON.stringify(base).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;
  const postRaw = (path: string, raw: string) =>
    t.http.post<ErrorBody>(path, undefined, { token, raw, headers: { 'content-type': 'application/json' } });

  it.each(PROTOTYPE_NAMES)('refuses %s as a taxMatrix key with 400 naming it', async (name) => {
    const matrix = withKey(fiscalMatrix() as Record<string, unknown>, name, fiscalMatrix()['21069090']);
    const body = JSON.stringify(group({})).replace('"taxMatrix":{}', `"taxMatrix":${matrix}`);
    const answer = await postRaw('/admin/fiscal-groups', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_FAILED');
  });

  it.each(PROTOTYPE_NAMES)('refuses %s inside a tax rule with 400', async (name) => {
    const rule = withKey(fiscalMatrix()['21069090'], name, 1);
    const body = JSON.stringify(group({})).replace('"taxMatrix":{}', `"taxMatrix":{"21069090":${rule}}`);
    const answer = await postRaw('/admin/fiscal-groups', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_FAILED');
  });

  it.each(PROTOTYPE_NAMES)('refuses %s as an unknown property of an admin body with 400', async (name) => {
    const answer = await postRaw(
      '/admin/product-fiscal-categories',
      withKey({ productId: unique('p'), productName: 'x', ncm: '21069090' }, name, 1),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_FAILED');
  });

  it.each(PROTOTYPE_NAMES)('refuses %s as an unknown query parameter with 400', async (name) => {
    // The routes that take query parameters (and refuse unknown ones).
    for (const path of ['/admin/orders', '/admin/fiscal-groups']) {
      const answer = await t.http.get<ErrorBody>(`${path}?${encodeURIComponent(name)}=1`, { token });
      expect([path, answer.status]).toEqual([path, 400]);
    }
  });

  it.each(PROTOTYPE_NAMES)('refuses %s as a CSV import column with 400', async (name) => {
    const groups = await t.http.get<Schemas['FiscalGroupPageDto']>('/admin/fiscal-groups', { token, query: { storeId } });
    const csv = `NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,${name}\n21069090,,00,18,01,0.65,01,3,1\n`;
    const answer = await t.http.put(`/admin/fiscal-groups/${groups.body.items[0]!.id}/tax-matrix`, undefined, {
      token,
      raw: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(answer.status).toBe(400);
  });

  it('leaves prototypes and other orders untouched', async () => {
    const before = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', orderFor(unique('before'), storeId), {
      token,
      query: { dryRun: true },
    });
    await postRaw('/enrich-order', withKey(orderFor(unique('polluter'), storeId), '__proto__', { polluted: true, toString: 'x' }));
    await postRaw(
      '/enrich-order',
      JSON.stringify(orderFor(unique('polluter2'), storeId)).replace(
        '"order":{',
        '"order":{"constructor":{"prototype":{"polluted":true}},',
      ),
    );
    const after = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', orderFor(unique('after'), storeId), {
      token,
      query: { dryRun: true },
    });
    expect(after.body.payload.taxSummary.totals).toEqual(before.body.payload.taxSummary.totals);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.toString.call([])).toBe('[object Array]');
    expect({}.constructor).toBe(Object);
  });
});
