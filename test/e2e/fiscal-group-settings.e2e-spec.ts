import { ok, type Api, type ErrorBody, type Schemas } from '../support/api.js';
import { groupBody } from '../support/fiscal-groups.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/** Settings as a request may send them: any of them (the typed client makes the one with a documented default required). */
type Settings = Partial<Schemas['FiscalGroupSettingsDto']>;
type SentSettings = Schemas['FiscalGroupSettingsDto'];

/** What a group answers for settings it was never given. */
const DEFAULTS: Schemas['FiscalGroupSettingsResponseDto'] = {
  includeIcmsInPisCofinsBase: false,
  platformDiscountsReduceBase: false,
  deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
  serviceChargeInIcmsBase: false,
};

/** The group settings that decide which order-level amounts enter the invoice, through the admin API. */
describe('fiscal group settings (e2e)', () => {
  let t: TestApp;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
    api = t.apiAs(token);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = async (settings?: Settings) =>
    ok(await api.POST('/api/admin/fiscal-groups', { body: groupBody(settings ? { settings: settings as SentSettings } : {}) }), 201);
  const get = async (id: string) => ok(await api.GET('/api/admin/fiscal-groups/{id}', { params: { path: { id } } }), 200);
  const update = async (id: string, settings: Settings) =>
    ok(await api.PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id } }, body: { settings: settings as SentSettings } }), 200);

  it('answers every setting with its default when none was sent', async () => {
    const group = await create();
    expect(group.settings).toEqual(DEFAULTS);
    expect((await get(group.id)).settings).toEqual(DEFAULTS);
    // An empty settings object is the same as none.
    expect((await create({})).settings).toEqual(DEFAULTS);
  });

  it.each<[string, Settings]>([
    ['platformDiscountsReduceBase', { platformDiscountsReduceBase: true }],
    ['deliveryFeeOnInvoice ALWAYS', { deliveryFeeOnInvoice: 'ALWAYS' }],
    ['deliveryFeeOnInvoice NEVER', { deliveryFeeOnInvoice: 'NEVER' }],
    ['serviceChargeInIcmsBase', { serviceChargeInIcmsBase: true }],
  ])('stores %s on create and answers it on create and get, the others at their defaults', async (_label, settings) => {
    const group = await create(settings);
    expect(group.settings).toEqual({ ...DEFAULTS, ...settings });
    expect((await get(group.id)).settings).toEqual({ ...DEFAULTS, ...settings });
  });

  it('changes on update only the settings sent, keeps the others, and records the change in the audit log', async () => {
    const group = await create({ platformDiscountsReduceBase: true, serviceChargeInIcmsBase: true });
    const updated = await update(group.id, { deliveryFeeOnInvoice: 'NEVER' });
    const expected = { ...DEFAULTS, platformDiscountsReduceBase: true, serviceChargeInIcmsBase: true, deliveryFeeOnInvoice: 'NEVER' };
    expect(updated.settings).toEqual(expected);
    expect((await get(group.id)).settings).toEqual(expected);

    const back = await update(group.id, { platformDiscountsReduceBase: false, deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS' });
    expect(back.settings).toEqual({ ...DEFAULTS, serviceChargeInIcmsBase: true });

    const events = ok(
      await api.GET('/api/admin/audit-events', { params: { query: { targetType: 'fiscal-group', targetId: group.id } } }),
      200,
    ).items;
    // Newest first: the second update, then the first, then the create.
    expect(events.map((event) => event.action)).toEqual(['update', 'update', 'create']);
    // Each setting whose applied value changed, on its own line (the default WHEN_MERCHANT_DELIVERS applied before).
    expect(events[1]!.changes).toEqual({ 'settings.deliveryFeeOnInvoice': { before: 'WHEN_MERCHANT_DELIVERS', after: 'NEVER' } });
    expect(events[0]!.changes).toEqual({
      'settings.platformDiscountsReduceBase': { before: true, after: false },
      'settings.deliveryFeeOnInvoice': { before: 'NEVER', after: 'WHEN_MERCHANT_DELIVERS' },
    });
  });

  it('keeps the settings out of the tax-matrix CSV: the export has matrix columns only, and an import leaves them as they are', async () => {
    const settings = { ...DEFAULTS, platformDiscountsReduceBase: true, deliveryFeeOnInvoice: 'ALWAYS' as const };
    const group = await create(settings);
    const exported = await t.http.get(`/admin/fiscal-groups/${group.id}/tax-matrix.csv`, { token });
    expect(exported.status).toBe(200);
    expect(exported.text.split('\r\n')[0]).not.toMatch(/platformDiscountsReduceBase|deliveryFeeOnInvoice|serviceChargeInIcmsBase/);

    const imported = await t.http.put<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.id}/tax-matrix`, undefined, {
      token,
      raw: exported.text,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status).toBe(200);
    expect(imported.body.settings).toEqual(settings);
    // A settings column is not a matrix column: refused by name.
    const withSetting = await t.http.put<ErrorBody>(`/admin/fiscal-groups/${group.id}/tax-matrix`, undefined, {
      token,
      raw: 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,deliveryFeeOnInvoice\r\n22030000,,60,18,04,0,04,0,NEVER\r\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(withSetting.status).toBe(400);
    expect(withSetting.body.details?.[0]?.problem).toMatch(/^unknown column\(s\) deliveryFeeOnInvoice;/);
    expect((await get(group.id)).settings).toEqual(settings);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['platformDiscountsReduceBase not a boolean', { platformDiscountsReduceBase: 'true' }, 'settings.platformDiscountsReduceBase'],
    ['deliveryFeeOnInvoice not a known value', { deliveryFeeOnInvoice: 'SOMETIMES' }, 'settings.deliveryFeeOnInvoice'],
    ['deliveryFeeOnInvoice in lower case', { deliveryFeeOnInvoice: 'always' }, 'settings.deliveryFeeOnInvoice'],
    ['serviceChargeInIcmsBase not a boolean', { serviceChargeInIcmsBase: 1 }, 'settings.serviceChargeInIcmsBase'],
    ['an unknown setting', { deliveryFeeOnInvoices: 'NEVER' }, 'settings.deliveryFeeOnInvoices'],
  ])('answers 400 naming the field for %s, on create and on update', async (_label, settings, field) => {
    const onCreate = await t.http.post<ErrorBody>('/admin/fiscal-groups', { ...groupBody(), settings }, { token });
    expect(onCreate.status).toBe(400);
    expect(onCreate.body.error).toBe('VALIDATION_FAILED');
    expect(onCreate.body.details?.map((detail) => detail.field)).toEqual([field]);

    const group = await create({ serviceChargeInIcmsBase: true });
    const onUpdate = await t.http.put<ErrorBody>(`/admin/fiscal-groups/${group.id}`, { settings }, { token });
    expect(onUpdate.status).toBe(400);
    expect(onUpdate.body.details?.map((detail) => detail.field)).toEqual([field]);
    // Nothing was changed by the refused update.
    expect((await get(group.id)).settings).toEqual({ ...DEFAULTS, serviceChargeInIcmsBase: true });
  });

  it('names the allowed values of deliveryFeeOnInvoice in its problem', async () => {
    const response = await t.http.post<ErrorBody>(
      '/admin/fiscal-groups',
      { ...groupBody(), settings: { deliveryFeeOnInvoice: 'SOMETIMES' } },
      { token },
    );
    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([
      { field: 'settings.deliveryFeeOnInvoice', problem: 'must be one of WHEN_MERCHANT_DELIVERS, ALWAYS, NEVER' },
    ]);
  });
});
