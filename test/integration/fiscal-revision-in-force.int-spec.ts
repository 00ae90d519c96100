import type { Actor } from '../../src/common/actor.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { AuditModule } from '../../src/audit/audit.module.js';
import { EnrichmentModule } from '../../src/enrichment/enrichment.module.js';
import { EnrichmentService } from '../../src/enrichment/enrichment.service.js';
import { FiscalGroupRevisions } from '../../src/fiscal-groups/fiscal-group-revisions.service.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { FiscalGroupsService } from '../../src/fiscal-groups/fiscal-groups.service.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import { fiscalGroup, orderPayload, productCategory, taxMatrixWith } from '../factories/index.js';
import { AUDIT } from '../support/audit.js';
import { bootIntegration, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';

const ENRICH: Actor = { clientId: '7001', via: 'POST /api/enrich-order' };
const SECOND = 1000;

/**
 * ICMS of the one line (product-burger, NCM 21069090, 25.90) by the rate of the revision that taxed it:
 * 25.90 × 12 % = 3.108 → 3.11; 25.90 × 18 % = 4.662 → 4.66.
 */
const ICMS_BY_RATE: Record<number, number> = { 12: 3.11, 18: 4.66 };

interface RevisionRow {
  revision: number;
  effective_from: Date;
  cancelled_at: Date | null;
  kind: string;
  rate: number;
}

describe('the revision that taxes an order is the one the revision table has in force at its tax instant (integration)', () => {
  let db: IntegrationContext;
  let enrichment: EnrichmentService;
  let groups: FiscalGroupsService;
  let revisions: FiscalGroupRevisions;
  let sent = 0;

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [
        AuditModule,
        EnrichmentModule,
        EnrichmentPortsModule,
        ...FISCAL_LOOKUP_MODULES,
        FiscalGroupsModule,
        ProductCategoriesModule,
      ],
    });
    enrichment = db.get(EnrichmentService);
    groups = db.get(FiscalGroupsService);
    revisions = db.get(FiscalGroupRevisions);
    await productCategory(db.dataSource, { productId: 'product-burger', ncm: '21069090' });
  });
  afterAll(async () => {
    await db.close();
  });

  /** A group at 12 % ICMS holding a store of its own. */
  async function groupAt12(): Promise<{ groupId: string; storeId: string }> {
    const storeId = `rev-store-${++sent}`;
    const group = await fiscalGroup(db.dataSource, { stores: [storeId], taxMatrix: taxMatrixWith(12) });
    return { groupId: group.id, storeId };
  }

  /** An order of the store, dated `createdAt` (absent: taxed at its receipt). */
  function sendOrder(storeId: string, createdAt?: Date) {
    const orderId = `rev-order-${++sent}`;
    const extra = createdAt ? { createdAt: createdAt.toISOString() } : {};
    return enrichment.enrich(orderPayload(orderId, storeId, extra), ENRICH);
  }

  /** The revision table as written (raw SQL: the test reads the table itself, not the service's view of it). */
  async function revisionTable(groupId: string): Promise<RevisionRow[]> {
    return db.dataSource.query(
      `SELECT revision, effective_from, cancelled_at, kind, (snapshot #>> '{taxMatrix,21069090,ICMS_rate}')::numeric::float8 AS rate
       FROM fiscal_group_revision WHERE fiscal_group_id = $1 ORDER BY revision`,
      [groupId],
    );
  }

  /**
   * The rule, applied by hand to the table: the last revision not cancelled (nor a deletion) that took effect at or
   * before the instant, on equal instants the later one; before the first, the first.
   */
  function inForceAt(table: RevisionRow[], instant: Date): RevisionRow {
    const live = table
      .filter((row) => !row.cancelled_at && row.kind !== 'delete')
      .sort((a, b) => a.effective_from.getTime() - b.effective_from.getTime() || a.revision - b.revision);
    return live.filter((row) => row.effective_from.getTime() <= instant.getTime()).at(-1) ?? live[0]!;
  }

  /** Every stored order of the group names the revision in force at its tax instant, and was taxed by its rate. */
  async function expectEveryOrderTaxedByTheRevisionInForce(groupId: string): Promise<OrderEntity[]> {
    const table = await revisionTable(groupId);
    const orders = await db.dataSource.getRepository(OrderEntity).find({ where: { fiscalGroupId: groupId } });
    const wrong = orders
      .map((order) => {
        const expected = inForceAt(table, order.taxInstant!);
        const products = (order.enrichedPayload as { order: { products: Array<{ tax: { ICMS_value: number } }> } }).order.products;
        return {
          orderId: order.orderId,
          taxInstant: order.taxInstant!.toISOString(),
          named: order.fiscalGroupRevision,
          inForce: expected.revision,
          icms: products[0]!.tax.ICMS_value,
          icmsOfInForce: ICMS_BY_RATE[expected.rate],
        };
      })
      .filter((order) => order.named !== order.inForce || order.icms !== order.icmsOfInForce);
    expect(wrong).toEqual([]);
    const cancelled = new Set(table.filter((row) => row.cancelled_at).map((row) => row.revision));
    expect(orders.filter((order) => cancelled.has(order.fiscalGroupRevision!))).toEqual([]);
    return orders;
  }

  describe('cancelling a revision', () => {
    it('409 REVISION_IN_USE for a scheduled revision that taxed an order dated ahead of its receipt; it stays', async () => {
      const { groupId, storeId } = await groupAt12();
      const effectiveFrom = new Date(Date.now() + 60 * SECOND);
      await groups.update(groupId, { taxMatrix: taxMatrixWith(18) as never }, AUDIT, effectiveFrom);
      const scheduled = (await revisionTable(groupId)).at(-1)!;
      // Dated two minutes ahead (within the five minutes allowed): taxed by the scheduled revision.
      await sendOrder(storeId, new Date(Date.now() + 120 * SECOND));

      await expect(revisions.cancel(groupId, scheduled.revision, AUDIT)).rejects.toMatchObject({
        status: 409,
        code: 'REVISION_IN_USE',
        details: [{ field: 'revision', fiscalGroupId: groupId, revision: scheduled.revision, effectiveFrom: effectiveFrom.toISOString() }],
      });
      expect((await revisionTable(groupId)).at(-1)!.cancelled_at).toBeNull();
      await expectEveryOrderTaxedByTheRevisionInForce(groupId);
    });

    it('409 REVISION_IN_FORCE for the revision in force', async () => {
      const { groupId } = await groupAt12();
      const inForce = (await revisionTable(groupId)).at(-1)!;
      await expect(revisions.cancel(groupId, inForce.revision, AUDIT)).rejects.toMatchObject({
        status: 409,
        code: 'REVISION_IN_FORCE',
        details: [{ field: 'revision', fiscalGroupId: groupId, revision: inForce.revision }],
      });
    });

    it('cancels a scheduled revision no order names; orders sent while it is cancelled never name it once cancelled', async () => {
      for (let trial = 0; trial < 6; trial++) {
        const { groupId, storeId } = await groupAt12();
        await groups.update(groupId, { taxMatrix: taxMatrixWith(18) as never }, AUDIT, new Date(Date.now() + 30 * SECOND));
        const scheduled = (await revisionTable(groupId)).at(-1)!;
        // Orders dated ahead, after the scheduled instant: each is taxed by the scheduled revision unless it is cancelled first.
        const dated = () => sendOrder(storeId, new Date(Date.now() + 90 * SECOND));
        const before = Array.from({ length: 10 }, dated);
        const cancelled = revisions.cancel(groupId, scheduled.revision, AUDIT).then(
          () => 'cancelled' as const,
          (error: { code?: string }) => error.code,
        );
        const after = Array.from({ length: 10 }, dated);
        const [outcome] = await Promise.all([cancelled, ...before, ...after]);

        const orders = await expectEveryOrderTaxedByTheRevisionInForce(groupId);
        const named = orders.filter((order) => order.fiscalGroupRevision === scheduled.revision).length;
        if (outcome === 'cancelled') expect(named).toBe(0);
        else expect([outcome, named > 0]).toEqual(['REVISION_IN_USE', true]);
      }
    });
  });

  describe('a write made at once', () => {
    it('taxes every order received after its instant with it, while orders keep coming (one instance, its cache)', async () => {
      const { groupId, storeId } = await groupAt12();
      let writing = true;
      const load = (async () => {
        const results: Array<PromiseSettledResult<unknown>> = [];
        while (writing) results.push(...(await Promise.allSettled(Array.from({ length: 8 }, () => sendOrder(storeId)))));
        return results;
      })();
      for (let change = 0; change < 12; change++) {
        await groups.replaceTaxMatrix(groupId, taxMatrixWith(change % 2 === 0 ? 18 : 12), AUDIT);
      }
      writing = false;
      const results = await load;
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      const orders = await expectEveryOrderTaxedByTheRevisionInForce(groupId);
      expect(new Set(orders.map((order) => order.fiscalGroupRevision)).size).toBeGreaterThan(1);
    });

    it('takes effect after the tax instant of an order dated ahead already taxed: that order keeps its revision', async () => {
      const { groupId, storeId } = await groupAt12();
      const ahead = new Date(Date.now() + 120 * SECOND);
      await sendOrder(storeId, ahead);
      await groups.replaceTaxMatrix(groupId, taxMatrixWith(18), AUDIT);
      const written = (await revisionTable(groupId)).at(-1)!;
      expect(written.effective_from.getTime()).toBe(ahead.getTime() + 1);
      await expectEveryOrderTaxedByTheRevisionInForce(groupId);
      // A second write made before that instant builds on the first one, not on the revision still in force.
      await groups.update(groupId, { name: 'Renamed' }, AUDIT);
      expect((await revisionTable(groupId)).at(-1)!.rate).toBe(18);
    });
  });
});
