import { FiscalGroupRevisionEntity } from '../../src/fiscal-groups/fiscal-group-revision.entity.js';
import { FiscalGroupEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { FiscalGroupsService } from '../../src/fiscal-groups/fiscal-groups.service.js';
import { failed, ok, type Api, type ErrorBody, type Schemas } from '../support/api.js';
import { groupBody, RULES, unique, type Group } from '../support/fiscal-groups.js';
import { eventually } from '../support/eventually.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/admin/fiscal-groups';
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Revisions of the fiscal groups through the admin API: one per write, scheduled ones, cancellation. */
describe('fiscal group revisions (e2e)', () => {
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

  const created = async (): Promise<Group> => ok(await api.POST('/api/admin/fiscal-groups', { body: groupBody() }), 201);
  const byId = async (id: string) => ok(await api.GET('/api/admin/fiscal-groups/{id}', { params: { path: { id } } }), 200);
  const update = (id: string, body: Schemas['UpdateFiscalGroupDto'], effectiveFrom?: string) =>
    api.PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id }, query: effectiveFrom ? { effectiveFrom } : {} }, body });
  const revisions = async (id: string) => ok(await api.GET('/api/admin/fiscal-groups/{id}/revisions', { params: { path: { id } } }), 200);
  const revision = (id: string, number: number) =>
    api.GET('/api/admin/fiscal-groups/{id}/revisions/{revision}', { params: { path: { id, revision: number } } });
  const cancel = (id: string, number: number) =>
    api.DELETE('/api/admin/fiscal-groups/{id}/revisions/{revision}', { params: { path: { id, revision: number } } });
  const withIcms = (rate: number) => ({ ...RULES, '21069090': { ...RULES['21069090'], ICMS_rate: rate } });
  const inHours = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();

  it('makes one revision per write, of every kind, newest first, each with its actor and the whole group', async () => {
    const group = await created();
    expect(group.revision).toBe(1);
    ok(await update(group.id, { name: 'Renamed' }), 200);
    ok(await update(group.id, { name: 'Renamed' }), 200); // changes nothing: no revision
    const csv = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\r\n21069090,,00,12,01,0.65,01,3\r\n';
    const imported = await t.http.put<Group>(`${BASE}/${group.id}/tax-matrix`, undefined, {
      token,
      raw: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status).toBe(200);
    expect(imported.body.revision).toBe(3);
    expect((await t.http.delete(`${BASE}/${group.id}`, { token })).status).toBe(204);

    // The group is gone; its history is not.
    const page = await revisions(group.id);
    expect(page.total).toBe(4);
    expect(page.items.map((item) => [item.revision, item.kind, item.status])).toEqual([
      [4, 'delete', 'in-force'],
      [3, 'import-matrix', 'past'],
      [2, 'update', 'past'],
      [1, 'create', 'past'],
    ]);
    expect(page.items.every((item) => item.actor?.type === 'client' && item.cancelledAt === null)).toBe(true);
    const second = ok(await revision(group.id, 2), 200);
    expect(second.group.name).toBe('Renamed');
    expect(second.group.taxMatrix).toEqual(RULES);
    expect(second.group.stores).toEqual(group.stores);
    const third = ok(await revision(group.id, 3), 200);
    expect(third.group.taxMatrix['21069090']?.ICMS_rate).toBe(12);
    expect(failed(await revision(group.id, 5), 404).error).toBe('NOT_FOUND');
  });

  it('shows a scheduled change beside the revision in force, which stays in force', async () => {
    const group = await created();
    const effectiveFrom = inHours(2);
    const answer = ok(await update(group.id, { taxMatrix: withIcms(20) }, effectiveFrom), 200);
    expect(answer.revision).toBe(1);
    expect(answer.taxMatrix).toEqual(RULES);
    const shown = await byId(group.id);
    expect(shown.revision).toBe(1);
    expect(shown.taxMatrix['21069090']?.ICMS_rate).toBe(18);
    expect(shown.scheduled).toEqual([{ revision: 2, effectiveFrom, actor: expect.objectContaining({ type: 'client' }) }]);
    const scheduled = ok(await revision(group.id, 2), 200);
    expect(scheduled).toMatchObject({ status: 'scheduled', kind: 'update', effectiveFrom });
    expect(scheduled.group.taxMatrix['21069090']?.ICMS_rate).toBe(20);

    // An immediate write applies to the revision in force; the scheduled one keeps its own content.
    ok(await update(group.id, { name: 'Renamed now' }), 200);
    const after = await byId(group.id);
    expect(after).toMatchObject({ revision: 3, name: 'Renamed now', scheduled: [expect.objectContaining({ revision: 2 })] });
    expect(ok(await revision(group.id, 2), 200).group.name).toBe(group.name);
  });

  it('builds a scheduled change on the revision that will be in force just before it', async () => {
    const group = await created();
    ok(await update(group.id, { taxMatrix: withIcms(20) }, inHours(1)), 200);
    ok(await update(group.id, { name: 'From the third hour' }, inHours(3)), 200);
    const third = ok(await revision(group.id, 3), 200).group;
    expect(third.name).toBe('From the third hour');
    expect(third.taxMatrix['21069090']?.ICMS_rate).toBe(20); // carried from the change in force from the first hour
  });

  it('shows a scheduled revision once in force, and the next write builds on it', async () => {
    const group = await created();
    ok(await update(group.id, { taxMatrix: withIcms(20) }, new Date(Date.now() + 1500).toISOString()), 200);
    // Waits for the instant to pass (an event: the group answering with the new revision), no fixed sleep.
    const inForce = await eventually(
      async () => {
        const shown = await byId(group.id);
        return shown.revision === 2 && shown;
      },
      { what: 'the scheduled revision to take effect' },
    );
    expect(inForce).toMatchObject({ scheduled: [] });
    expect(inForce.taxMatrix['21069090']?.ICMS_rate).toBe(20);
    const exported = await t.http.get(`${BASE}/${group.id}/tax-matrix.csv`, { token });
    expect(exported.text).toContain('21069090,,00,20,');
    // An immediate write starts from the revision in force: the matrix it did not send stays at 20 %.
    const renamed = ok(await update(group.id, { name: 'After the switch' }), 200);
    expect(renamed).toMatchObject({ revision: 3, name: 'After the switch' });
    expect(renamed.taxMatrix['21069090']?.ICMS_rate).toBe(20);
  });

  it('makes no revision for a scheduled write that changes nothing', async () => {
    const group = await created();
    const same = ok(await update(group.id, { name: group.name, taxMatrix: RULES }, inHours(1)), 200);
    expect(same).toMatchObject({ revision: 1, scheduled: [] });
    // Built on the revision in force just before it: the change scheduled for the first hour, sent again for the second.
    ok(await update(group.id, { taxMatrix: withIcms(20) }, inHours(1)), 200);
    ok(await update(group.id, { taxMatrix: withIcms(20) }, inHours(2)), 200);
    const csv = await t.http.put<Group>(`${BASE}/${group.id}/tax-matrix`, undefined, {
      token,
      raw: 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP\r\n21069090,,00,20,01,0.65,01,3,5102\r\n22021000,0300700,60,18,04,0.65,04,3,\r\n1905,,00,7.0001,01,1.65,01,7.6,\r\n',
      headers: { 'content-type': 'text/csv' },
      query: { effectiveFrom: inHours(3) },
    });
    expect([csv.status, csv.body.scheduled?.map((item) => item.revision)]).toEqual([200, [2]]);
    expect((await revisions(group.id)).items.map((item) => [item.revision, item.status])).toEqual([
      [2, 'scheduled'],
      [1, 'in-force'],
    ]);
  });

  it('keeps an external id changed at once when a revision scheduled before the change takes effect', async () => {
    const group = await created();
    const leftId = group.externalId!;
    ok(await update(group.id, { taxMatrix: withIcms(20) }, new Date(Date.now() + 3000).toISOString()), 200);
    const externalId = unique('ext-now');
    const changed = ok(await update(group.id, { externalId }), 200);
    // Changed while revision 2 is still scheduled: the case under test.
    expect(changed).toMatchObject({ externalId, revision: 3, scheduled: [expect.objectContaining({ revision: 2 })] });
    ok(await api.POST('/api/admin/fiscal-groups', { body: groupBody({ externalId: leftId }) }), 201); // takes the id left

    const inForce = await eventually(
      async () => {
        const shown = await byId(group.id);
        return shown.revision === 2 && shown;
      },
      { what: 'the scheduled revision to take effect' },
    );
    expect(inForce).toMatchObject({ externalId, scheduled: [] });
    expect(inForce.taxMatrix['21069090']?.ICMS_rate).toBe(20);
    // The next writes start from revision 2 with the group's own id, not the one another group holds now.
    expect(ok(await update(group.id, { name: 'After the switch' }), 200)).toMatchObject({ revision: 4, externalId });
    const imported = await t.http.put<Group>(`${BASE}/${group.id}/tax-matrix`, undefined, {
      token,
      raw: 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\r\n21069090,,00,12,01,0.65,01,3\r\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect([imported.status, imported.body.revision, imported.body.externalId]).toEqual([200, 5, externalId]);
    expect((await t.dataSource.getRepository(FiscalGroupEntity).findOneByOrFail({ id: group.id })).externalId).toBe(externalId);
  });

  it('refuses a scheduled change of the stores, a bad effectiveFrom, and names the parameter', async () => {
    const group = await created();
    const movedStores = [{ store_id: unique('store'), store_name: 'Elsewhere' }];
    const stores = failed(await update(group.id, { stores: movedStores }, inHours(1)), 400);
    expect(stores.details).toEqual([{ field: 'stores', problem: expect.stringMatching(/at once/) }]);
    for (const effectiveFrom of [
      new Date(Date.now() - 60_000).toISOString(), // in the past
      new Date(Date.now() + 401 * DAY_MS).toISOString(), // beyond 400 days
      '2027-01-01T00:00:00', // no offset
      'tomorrow',
    ]) {
      const refused = failed(await update(group.id, { name: 'x' }, effectiveFrom), 400);
      expect([...new Set(refused.details?.map((detail) => detail.field))]).toEqual(['effectiveFrom']);
    }
    const csvRefused = await t.http.put<ErrorBody>(`${BASE}/${group.id}/tax-matrix?effectiveFrom=yesterday`, undefined, {
      token,
      raw: 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\r\n21069090,,00,12,01,0.65,01,3\r\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(csvRefused.status).toBe(400);
    expect((await revisions(group.id)).total).toBe(1);
  });

  it('refuses effectiveFrom on creating and deleting a group, which take effect at once', async () => {
    const group = await created();
    const refusal = { error: 'VALIDATION_FAILED', details: [{ field: 'effectiveFrom', problem: expect.stringMatching(/at once/) }] };
    // Parameters outside the schema: sent raw.
    const deleted = await t.http.delete<ErrorBody>(`${BASE}/${group.id}`, { token, query: { effectiveFrom: inHours(1) } });
    expect([deleted.status, deleted.body]).toEqual([400, expect.objectContaining(refusal)]);
    expect(await byId(group.id)).toMatchObject({ revision: 1, scheduled: [] });
    const body = groupBody();
    const create = await t.http.post<ErrorBody>(BASE, body, { token, query: { effectiveFrom: inHours(1) } });
    expect([create.status, create.body]).toEqual([400, expect.objectContaining(refusal)]);
    const storeId = body.stores[0]!.store_id;
    failed(await api.GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId } } }), 404);
    // As on the routes with a query, an unknown parameter is refused too.
    const unknown = await t.http.delete<ErrorBody>(`${BASE}/${group.id}`, { token, query: { color: 'red' } });
    expect([unknown.status, unknown.body.details]).toEqual([400, [{ field: 'color', problem: 'property color should not exist' }]]);
  });

  it('cancels a scheduled revision, and refuses once in force (409 REVISION_IN_FORCE), twice, or unknown', async () => {
    const group = await created();
    ok(await update(group.id, { taxMatrix: withIcms(20) }, inHours(1)), 200);
    expect((await cancel(group.id, 2)).response.status).toBe(204);
    expect((await byId(group.id)).scheduled).toEqual([]);
    const cancelled = ok(await revision(group.id, 2), 200);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: expect.objectContaining({ type: 'client' }) });
    expect(failed(await cancel(group.id, 2), 409).error).toBe('CONFLICT');
    const inForce = failed(await cancel(group.id, 1), 409);
    expect(inForce).toMatchObject({ error: 'REVISION_IN_FORCE', details: [{ field: 'revision', fiscalGroupId: group.id, revision: 1 }] });
    expectDeclaredError('DELETE', '/api/admin/fiscal-groups/{id}/revisions/{revision}', { status: 409, body: inForce });
    expect(failed(await cancel(group.id, 9), 404).error).toBe('NOT_FOUND');
  });

  it('cancels the scheduled revisions of a deleted group', async () => {
    const group = await created();
    ok(await update(group.id, { taxMatrix: withIcms(20) }, inHours(1)), 200);
    expect((await t.http.delete(`${BASE}/${group.id}`, { token })).status).toBe(204);
    expect((await revisions(group.id)).items.map((item) => [item.revision, item.status])).toEqual([
      [3, 'in-force'],
      [2, 'cancelled'],
      [1, 'past'],
    ]);
  });

  it('makes a revision without an actor for a write that names none and for SQL by hand', async () => {
    const group = await created();
    await t.app.get(FiscalGroupsService).replaceTaxMatrix(group.id, withIcms(7), undefined); // a write without an audit context
    // Behind the service's back: the trigger on the group's row writes the revision.
    await t.dataSource.getRepository(FiscalGroupEntity).update({ id: group.id }, { name: 'Edited by hand' });
    const page = await revisions(group.id);
    expect(page.items.map((item) => [item.revision, item.kind, item.actor])).toEqual([
      [3, 'update', null],
      [2, 'import-matrix', null],
      [1, 'create', expect.objectContaining({ type: 'client' })],
    ]);
    expect(ok(await revision(group.id, 3), 200).group).toMatchObject({ name: 'Edited by hand', stores: group.stores });
    expect(await byId(group.id)).toMatchObject({ revision: 3, name: 'Edited by hand' });
  });

  it('keeps revisions append-only: the database refuses to change or delete one', async () => {
    const group = await created();
    const repository = t.dataSource.getRepository(FiscalGroupRevisionEntity);
    // Through the database itself: the trigger is what is tested.
    await expect(repository.update({ fiscalGroupId: group.id }, { kind: 'update' })).rejects.toThrow(/append-only/);
    await expect(repository.delete({ fiscalGroupId: group.id })).rejects.toThrow(/append-only/);
    await expect(repository.update({ fiscalGroupId: group.id }, { cancelledAt: new Date() })).rejects.toThrow(/append-only/); // in force
    ok(await update(group.id, { name: 'Later' }, inHours(1)), 200);
    await repository.update({ fiscalGroupId: group.id, revision: 2 }, { cancelledAt: new Date() }); // not yet in force: allowed
    expect((await repository.findOneByOrFail({ fiscalGroupId: group.id, revision: 2 })).cancelledAt).not.toBeNull();
  });
});
