import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { AuditModule } from '../../src/audit/audit.module.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { FiscalGroupsService } from '../../src/fiscal-groups/fiscal-groups.service.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import { ProductCategoriesService } from '../../src/product-categories/product-categories.service.js';
import { StatusAliasesModule } from '../../src/status-aliases/status-aliases.module.js';
import { StatusAliasesService } from '../../src/status-aliases/status-aliases.service.js';
import { fiscalGroup, productCategory, taxMatrixWith } from '../factories/index.js';
import { AUDIT, auditEventsOf } from '../support/audit.js';
import { bootIntegration, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';

const CSV_HEADER = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP';

/**
 * Each write to fiscal data records its event in its own transaction, with the request's actor and
 * the changed fields before and after; a write that fails records nothing.
 */
describe('audit events of fiscal groups, product categories and status aliases (integration)', () => {
  let db: IntegrationContext;
  let groups: FiscalGroupsService;
  let categories: ProductCategoriesService;
  let aliases: StatusAliasesService;

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [AuditModule, FiscalGroupsModule, ProductCategoriesModule, StatusAliasesModule, ...FISCAL_LOOKUP_MODULES],
    });
    groups = db.get(FiscalGroupsService);
    categories = db.get(ProductCategoriesService);
    aliases = db.get(StatusAliasesService);
  });
  afterAll(() => db.close());

  describe('fiscal groups', () => {
    it('records create, update (fields, stores, matrix by NCM key), CSV import and delete, each with the actor and request', async () => {
      const created = await groups.create(
        { name: 'Paulista', uf: 'SP', stores: [{ store_id: 'audit-1', store_name: 'One' }], taxMatrix: taxMatrixWith(18) as never },
        AUDIT,
      );
      await groups.update(
        created.id,
        { name: 'Paulista Centro', stores: [{ store_id: 'audit-2', store_name: 'Two' }], taxMatrix: taxMatrixWith(12) as never },
        AUDIT,
      );
      await groups.importTaxMatrixCsv(created.id, `${CSV_HEADER}\r\n22021000,0300700,60,18,04,0.65,04,3,5405\r\n`, AUDIT);
      await groups.remove(created.id, AUDIT);

      const events = await auditEventsOf(db.dataSource, 'fiscal-group', created.id);
      expect(events.map((event) => event.action)).toEqual(['create', 'update', 'import-matrix', 'delete']);
      for (const event of events) {
        expect(event).toMatchObject({
          actorType: 'user',
          actorId: AUDIT.actor.id,
          actorName: 'Test Admin',
          requestId: 'req-test',
          address: '192.0.2.10',
        });
      }
      const [create, update, csv, remove] = events.map((event) => event.changes);
      // Each setting as the group applies it, on its own line; none was sent, so each is its default.
      expect(create).toMatchObject({ 'settings.deliveryFeeOnInvoice': { before: null, after: 'WHEN_MERCHANT_DELIVERS' } });
      expect(create).toMatchObject({
        name: { before: null, after: 'Paulista' },
        uf: { before: null, after: 'SP' },
        stores: { before: null, after: [{ store_id: 'audit-1', store_name: 'One' }] },
        'taxMatrix.21069090': { before: null, after: expect.objectContaining({ ICMS_rate: 18 }) },
      });
      // Only what changed: the name, the stores and the one field of the one rule that changed (ICMS 18 -> 12).
      expect(Object.keys(update!).sort()).toEqual(['name', 'stores', 'taxMatrix.21069090.ICMS_rate']);
      expect(update!['taxMatrix.21069090.ICMS_rate']).toEqual({ before: 18, after: 12 });
      expect(update!.stores).toEqual({
        before: [{ store_id: 'audit-1', store_name: 'One' }],
        after: [{ store_id: 'audit-2', store_name: 'Two' }],
      });
      // The CSV replaced the matrix: one key gone, one added.
      expect(Object.keys(csv!).sort()).toEqual(['taxMatrix.21069090', 'taxMatrix.22021000']);
      expect(csv!['taxMatrix.21069090']!.after).toBeNull();
      expect(csv!['taxMatrix.22021000']).toEqual({ before: null, after: expect.objectContaining({ NCM: '22021000', ICMS_rate: 18 }) });
      expect(remove).toMatchObject({ name: { before: 'Paulista Centro', after: null }, 'taxMatrix.22021000': { after: null } });
    });

    it('records nothing for a write refused with 409 (a store another group holds) or an update that changes nothing', async () => {
      await fiscalGroup(db.dataSource, { stores: ['held-elsewhere'] });
      const group = await fiscalGroup(db.dataSource, { stores: ['mine'] });
      await expect(
        groups.update(group.id, { name: 'Renamed', stores: [{ store_id: 'held-elsewhere', store_name: 'x' }] }, AUDIT),
      ).rejects.toMatchObject({
        status: 409,
      });
      await expect(
        groups.create({ name: 'Newcomer', uf: 'RJ', stores: [{ store_id: 'held-elsewhere', store_name: 'x' }], taxMatrix: {} }, AUDIT),
      ).rejects.toMatchObject({ status: 409 });
      await groups.update(group.id, { name: group.name }, AUDIT);
      // The console sends every setting as it shows it, defaults included: on a group that never stored them, that
      // changes nothing it applies, so nothing is recorded (it was `settings: {} → {…the defaults}`).
      await groups.update(
        group.id,
        {
          settings: {
            includeIcmsInPisCofinsBase: false,
            platformDiscountsReduceBase: false,
            deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
            serviceChargeInIcmsBase: false,
          },
        },
        AUDIT,
      );
      await expect(
        groups.importTaxMatrixCsv(group.id, `${CSV_HEADER}\r\nnot-a-code,,60,18,04,0.65,04,3,5405\r\n`, AUDIT),
      ).rejects.toMatchObject({
        status: 400,
      });
      expect(await auditEventsOf(db.dataSource, 'fiscal-group', group.id)).toEqual([]);
      const all = await db.dataSource.getRepository(AuditEventEntity).find();
      expect(all.filter((event) => event.changes.name?.after === 'Newcomer')).toEqual([]);
    });
  });

  describe('product fiscal categories', () => {
    it('records create, update and delete with the changed fields; a 409 records nothing', async () => {
      await categories.create({ productId: 'audit-burger', productName: 'Burger', ncm: '21069090' }, AUDIT);
      await categories.update('audit-burger', { ncm: '22021000', productName: 'Burger' }, AUDIT);
      await productCategory(db.dataSource, { productId: 'other', externalProductId: 'EXT-TAKEN', ncm: '21069090' });
      await expect(categories.update('audit-burger', { externalProductId: 'EXT-TAKEN' }, AUDIT)).rejects.toMatchObject({ status: 409 });
      await expect(categories.create({ productId: 'audit-burger', productName: 'Again', ncm: '21069090' }, AUDIT)).rejects.toMatchObject({
        status: 409,
      });
      await categories.remove('audit-burger', AUDIT);

      const events = await auditEventsOf(db.dataSource, 'product-fiscal-category', 'audit-burger');
      expect(events.map((event) => [event.action, event.changes])).toEqual([
        ['create', { productName: { before: null, after: 'Burger' }, ncm: { before: null, after: '21069090' } }],
        ['update', { ncm: { before: '21069090', after: '22021000' } }],
        ['delete', { productName: { before: 'Burger', after: null }, ncm: { before: '22021000', after: null } }],
      ]);
    });
  });

  describe('status aliases', () => {
    it('records a replacement that changes the table, with the whole table before and after; a refused one records nothing', async () => {
      const seeded = await aliases.list(); // the migrations' default aliases
      await aliases.replace([{ label: 'Entregue', status: 'DELIVERED' }], AUDIT);
      await aliases.replace([{ label: 'Entregue', status: 'DELIVERED' }], AUDIT);
      await expect(aliases.replace([{ label: 'DELIVERED', status: 'DELIVERED' }], AUDIT)).rejects.toMatchObject({ status: 400 });
      await aliases.replace([{ label: 'Listo', status: 'READY' }], AUDIT);

      const events = await auditEventsOf(db.dataSource, 'status-aliases', 'all');
      expect(events.map((event) => [event.action, event.changes])).toEqual([
        ['replace', { aliases: { before: expect.arrayContaining(seeded), after: [{ label: 'Entregue', status: 'DELIVERED' }] } }],
        ['replace', { aliases: { before: [{ label: 'Entregue', status: 'DELIVERED' }], after: [{ label: 'Listo', status: 'READY' }] } }],
      ]);
    });
  });
});
