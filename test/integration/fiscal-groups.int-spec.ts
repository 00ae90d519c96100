import { In } from 'typeorm';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { storeRefsOf } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { FiscalGroupsService } from '../../src/fiscal-groups/fiscal-groups.service.js';
import { taxMatrixToCsv } from '../../src/fiscal-groups/tax-matrix-csv.js';
import { FiscalLookupService } from '../../src/fiscal-lookup/fiscal-lookup.service.js';
import { fiscalGroup, taxMatrixWith } from '../factories/index.js';
import { bootIntegration, withoutFiscalNotifications, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import { AUDIT } from '../support/audit.js';
import { AuditModule } from '../../src/audit/audit.module.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('FiscalGroupsService (integration)', () => {
  let db: IntegrationContext;
  let service: FiscalGroupsService;

  const ownersOf = async (...storeIds: string[]) =>
    Object.fromEntries(
      (await db.dataSource.getRepository(FiscalGroupStoreEntity).find({ where: { storeId: In(storeIds) }, order: { storeId: 'ASC' } })).map(
        (row) => [row.storeId, row.fiscalGroupId],
      ),
    );
  const groupCount = async () => db.dataSource.getRepository(FiscalGroupEntity).count();

  beforeAll(async () => {
    // FiscalLookupModule is global in the app: the service drops its cache after each write.
    db = await bootIntegration({ imports: [AuditModule, FiscalGroupsModule, ...FISCAL_LOOKUP_MODULES] });
    service = db.get(FiscalGroupsService);
  });
  afterAll(async () => {
    await db.close();
  });

  describe('create', () => {
    it('stores the group with its matrix in canonical form and claims its stores', async () => {
      const created = await service.create(
        {
          name: 'Paulista',
          uf: 'SP',
          taxRegime: 'LUCRO_REAL',
          externalId: 'ext-create',
          stores: [
            { store_id: 'create-1', store_name: 'One' },
            { store_id: 'create-2', store_name: 'Two' },
          ],
          // Keys out of order, a null optional field: stored sorted and without it.
          taxMatrix: { '22021000': { ...taxMatrixWith()['21069090'], NCM: '22021000', CFOP: null }, ...taxMatrixWith() } as never,
        },
        AUDIT,
      );
      expect(created).toMatchObject({ name: 'Paulista', uf: 'SP', taxRegime: 'LUCRO_REAL', externalId: 'ext-create', settings: {} });
      expect(Object.keys(created.taxMatrix)).toEqual(['21069090', '22021000']);
      expect(created.taxMatrix['22021000']).not.toHaveProperty('CFOP');
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(await ownersOf('create-1', 'create-2')).toEqual({ 'create-1': created.id, 'create-2': created.id });
    });

    it('keeps the stores with their names in the order sent (one record: fiscal_group_store)', async () => {
      const stores = [
        { store_id: 'order-z', store_name: 'Zed' },
        { store_id: 'order-a', store_name: 'Ay' },
        { store_id: 'order-m', store_name: '' },
      ];
      const created = await service.create({ name: 'Ordered', uf: 'SP', stores, taxMatrix: {} }, AUDIT);
      expect(storeRefsOf(created)).toEqual(stores);
      expect(storeRefsOf(await service.findById(created.id))).toEqual(stores);
      expect(storeRefsOf((await service.findByStore('order-a'))!)).toEqual(stores);
      expect(storeRefsOf((await service.list({ storeId: 'order-m' })).items[0]!)).toEqual(stores);
    });

    it('refuses with 409 a store another group holds, naming the holder; nothing is written', async () => {
      const holder = await fiscalGroup(db.dataSource, { name: 'Holder', stores: ['held-1'] });
      const before = await groupCount();
      await expect(
        service.create(
          {
            name: 'Claimer',
            uf: 'RJ',
            stores: [
              { store_id: 'free-1', store_name: 'Free' },
              { store_id: 'held-1', store_name: 'Held' },
            ],
            taxMatrix: {},
          },
          AUDIT,
        ),
      ).rejects.toMatchObject({
        status: 409,
        code: 'STORE_IN_ANOTHER_GROUP',
        message: `store "held-1" already belongs to fiscal group ${holder.id} ("Holder")`,
        details: [
          {
            field: 'stores',
            problem: `store "held-1" already belongs to fiscal group ${holder.id} ("Holder")`,
            storeId: 'held-1',
            fiscalGroupId: holder.id,
            fiscalGroupName: 'Holder',
          },
        ],
      });
      expect(await groupCount()).toBe(before);
      expect(await ownersOf('free-1', 'held-1')).toEqual({ 'held-1': holder.id });
    });

    it('refuses with 409 an externalId another group uses, naming it', async () => {
      const other = await fiscalGroup(db.dataSource, { externalId: 'ext-taken' });
      await expect(
        service.create({ name: 'Copy', uf: 'SP', externalId: 'ext-taken', stores: [], taxMatrix: {} }, AUDIT),
      ).rejects.toMatchObject({
        status: 409,
        code: 'EXTERNAL_ID_IN_USE',
        message: `externalId "ext-taken" is already used by fiscal group ${other.id}`,
        details: [
          { field: 'externalId', problem: 'is already used by another fiscal group', externalId: 'ext-taken', fiscalGroupId: other.id },
        ],
      });
    });
  });

  describe('update', () => {
    it('changes only what is sent and merges the settings', async () => {
      const group = await fiscalGroup(db.dataSource, { name: 'Before', uf: 'MG', settings: { includeIcmsInPisCofinsBase: false } });
      const updated = await service.update(group.id, { name: 'After', settings: { includeIcmsInPisCofinsBase: true } }, AUDIT);
      expect(updated).toMatchObject({
        id: group.id,
        name: 'After',
        uf: 'MG',
        taxRegime: group.taxRegime,
        stores: group.stores,
        taxMatrix: group.taxMatrix,
        settings: { includeIcmsInPisCofinsBase: true },
      });
      expect(updated.updatedAt.getTime()).toBeGreaterThan(group.updatedAt.getTime());
      // Settings not sent are kept.
      expect((await service.update(group.id, { settings: {} }, AUDIT)).settings).toEqual({ includeIcmsInPisCofinsBase: true });
    });

    it('replacing the stores releases the old ones, which another group can then claim', async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['move-old'] });
      await service.update(group.id, { stores: [{ store_id: 'move-new', store_name: 'New' }] }, AUDIT);
      expect(await ownersOf('move-old', 'move-new')).toEqual({ 'move-new': group.id });
      const other = await service.create(
        { name: 'Taker', uf: 'SP', stores: [{ store_id: 'move-old', store_name: 'Old' }], taxMatrix: {} },
        AUDIT,
      );
      expect(await ownersOf('move-old')).toEqual({ 'move-old': other.id });
    });

    it('a new store list alone is a change of the group (updatedAt), the same list is none', async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['touch-1'] });
      const moved = await service.update(
        group.id,
        {
          stores: [
            { store_id: 'touch-2', store_name: 'Two' },
            { store_id: 'touch-1', store_name: 'One' },
          ],
        },
        AUDIT,
      );
      expect(storeRefsOf(moved)).toEqual([
        { store_id: 'touch-2', store_name: 'Two' },
        { store_id: 'touch-1', store_name: 'One' },
      ]);
      expect(moved.updatedAt.getTime()).toBeGreaterThan(group.updatedAt.getTime());
      const again = await service.update(group.id, { stores: storeRefsOf(moved) }, AUDIT);
      expect(again.updatedAt).toEqual(moved.updatedAt);
    });

    it('refuses with 409 a store of another group and keeps the group as it was', async () => {
      const holder = await fiscalGroup(db.dataSource, { name: 'Keeper', stores: ['kept'] });
      const group = await fiscalGroup(db.dataSource, { name: 'Mover', stores: ['mine'] });
      await expect(
        service.update(
          group.id,
          {
            name: 'Renamed',
            stores: [
              { store_id: 'mine', store_name: 'Mine' },
              { store_id: 'kept', store_name: 'Kept' },
            ],
          },
          AUDIT,
        ),
      ).rejects.toMatchObject({ status: 409, message: expect.stringContaining(`fiscal group ${holder.id} ("Keeper")`) });
      expect(await service.findById(group.id)).toMatchObject({ name: 'Mover', stores: group.stores });
      expect(await ownersOf('mine', 'kept')).toEqual({ mine: group.id, kept: holder.id });
    });

    it('answers 404 for an unknown group', async () => {
      await expect(service.update(UNKNOWN_ID, { name: 'x' }, AUDIT)).rejects.toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        message: `Fiscal group ${UNKNOWN_ID} not found`,
      });
    });
  });

  describe('tax matrix import', () => {
    it('replaces the whole matrix from CSV', async () => {
      const group = await fiscalGroup(db.dataSource);
      const replacement = { ...taxMatrixWith(7), '1905': { ...taxMatrixWith(7)['21069090']!, NCM: '1905' } };
      const updated = await service.importTaxMatrixCsv(group.id, taxMatrixToCsv(replacement), AUDIT);
      expect(Object.keys(updated.taxMatrix)).toEqual(['1905', '21069090']);
      expect(updated.taxMatrix['21069090']!.ICMS_rate).toBe(7);
    });

    it('changes nothing when the CSV has a problem', async () => {
      const group = await fiscalGroup(db.dataSource);
      await expect(service.importTaxMatrixCsv(group.id, 'NCM,ICMS_rate\r\n21069090,abc\r\n', AUDIT)).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining('nothing was changed'),
      });
      expect((await service.findById(group.id)).taxMatrix).toEqual(group.taxMatrix);
    });
  });

  describe('remove', () => {
    it('deletes the group and frees its stores; a second delete is 404', async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['gone-1'] });
      await service.remove(group.id, AUDIT);
      expect(await ownersOf('gone-1')).toEqual({});
      expect(await service.findByStore('gone-1')).toBeUndefined();
      await expect(service.remove(group.id, AUDIT)).rejects.toMatchObject({ status: 404 });
      await expect(service.findById(group.id)).rejects.toMatchObject({ status: 404, message: `Fiscal group ${group.id} not found` });
    });
  });

  describe('findByStore', () => {
    it('finds the group holding a store, and nothing for a store no group holds', async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['find-a', 'find-b'] });
      expect((await service.findByStore('find-b'))?.id).toBe(group.id);
      expect(await service.findByStore('find-nobody')).toBeUndefined();
    });

    it('a write through the service drops the cached order-path lookups at once, without waiting for NOTIFY', async () => {
      const lookup = db.get(FiscalLookupService);
      await db.settleNotifications();
      await withoutFiscalNotifications(db.dataSource, async () => {
        expect(await lookup.groupByStore('cached-store')).toBeUndefined(); // now cached as "no group"
        const created = await service.create(
          {
            name: 'Late',
            uf: 'SP',
            stores: [{ store_id: 'cached-store', store_name: 'C' }],
            taxMatrix: {},
          },
          AUDIT,
        );
        expect((await lookup.groupByStore('cached-store'))?.id).toBe(created.id);
        await service.update(created.id, { taxMatrix: taxMatrixWith(4) }, AUDIT);
        expect((await lookup.groupByStore('cached-store'))?.taxMatrix).toEqual(taxMatrixWith(4));
        await service.remove(created.id, AUDIT);
        expect(await lookup.groupByStore('cached-store')).toBeUndefined();
      });
    });
  });

  describe('list', () => {
    const at = (iso: string) => new Date(iso);
    let paulista: FiscalGroupEntity;
    let carioca: FiscalGroupEntity;
    let mineiro: FiscalGroupEntity;

    beforeAll(async () => {
      // Every group and the stores hanging off it, in one statement (TypeORM's clear() truncates without CASCADE).
      await db.dataSource.query('TRUNCATE fiscal_group CASCADE');
      paulista = await fiscalGroup(db.dataSource, { uf: 'SP', stores: ['list-sp'], createdAt: at('2026-01-01T00:00:00Z') });
      carioca = await fiscalGroup(db.dataSource, { uf: 'RJ', stores: ['list-rj'], createdAt: at('2026-01-03T00:00:00Z') });
      mineiro = await fiscalGroup(db.dataSource, { uf: 'SP', stores: ['list-mg'], createdAt: at('2026-01-02T00:00:00Z') });
    });

    it('pages the groups newest first, with the total', async () => {
      const first = await service.list({ pageSize: 2 });
      expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2, totalPages: 2 });
      expect(first.items.map((group) => group.id)).toEqual([carioca.id, mineiro.id]);
      const second = await service.list({ page: 2, pageSize: 2 });
      expect(second.items.map((group) => group.id)).toEqual([paulista.id]);
    });

    it('orders groups created at the same instant by id, descending', async () => {
      const same = at('2026-02-01T00:00:00Z');
      const twins = [];
      for (let n = 0; n < 4; n++) twins.push(await fiscalGroup(db.dataSource, { uf: 'BA', createdAt: same }));
      const ids = (await service.list({ uf: 'BA' })).items.map((group) => group.id);
      expect(ids).toEqual(
        twins
          .map((group) => group.id)
          .sort()
          .reverse(),
      );
    });

    it('filters by uf and by store', async () => {
      expect((await service.list({ uf: 'SP' })).items.map((group) => group.id)).toEqual([mineiro.id, paulista.id]);
      expect((await service.list({ storeId: 'list-rj' })).items.map((group) => group.id)).toEqual([carioca.id]);
      expect(await service.list({ uf: 'RJ', storeId: 'list-sp' })).toMatchObject({ items: [], total: 0 });
    });
  });
});
