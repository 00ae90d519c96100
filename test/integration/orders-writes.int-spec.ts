import { jest } from '@jest/globals';
import type { Actor } from '../../src/common/actor.js';
import { OrderEntity, OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import type { OrderStatus } from '../../src/orders/order-status.js';
import { OrderStatusWriter } from '../../src/orders/order-status-writer.js';
import { OrdersModule } from '../../src/orders/orders.module.js';
import { OrdersRepository, upsertBatchStatement, type OrderUpsert } from '../../src/orders/orders.repository.js';
import { SqlRunner } from '../../src/database/sql-runner.js';
import { outboxJob } from '../../src/webhooks/webhook-deliveries.repository.js';
import { fiscalGroup, order, orderPayload } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

const ENRICH: Actor = { clientId: '7001', via: 'POST /api/enrich-order' };
const POS: Actor = { clientId: '7002', via: 'PUT /api/order/status' };

describe('Orders: the upsert and the status writer (integration)', () => {
  let db: IntegrationContext;
  let orders: OrdersRepository;
  let writer: OrderStatusWriter;

  const stored = (orderId: string) => db.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
  const historyOf = (orderDbId: string) =>
    db.dataSource.getRepository(OrderStatusHistoryEntity).find({ where: { orderDbId }, order: { id: 'ASC' } });
  /** What `/enrich-order` stores for a taxed order of `storeId`. */
  const taxed = (orderId: string, storeId: string, taxNote = 'taxed'): OrderUpsert => ({
    orderId,
    status: 'ENRICHED',
    payloadJson: JSON.stringify(orderPayload(orderId, storeId)),
    enrichedPayloadJson: JSON.stringify({ ...orderPayload(orderId, storeId), taxNote }),
    storeId,
    source: 'integration',
    fiscalGroupId: null,
    personalDataKeys: '',
  });
  /** What `/enrich-order` stores when no fiscal group holds the store. */
  const untaxed = (orderId: string, storeId: string): OrderUpsert => ({
    ...taxed(orderId, storeId),
    status: 'ENRICHMENT_FAILED',
    enrichedPayloadJson: null,
  });
  /** Runs the writer's transition in a transaction of its own, as the fulfillment routes do. */
  const transition = (orderId: string, to: OrderStatus, note = {}) =>
    db.dataSource.transaction(async (manager) => writer.transition(manager, await writer.lock(manager, orderId), to, POS, note));

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
    orders = db.get(OrdersRepository);
    writer = db.get(OrderStatusWriter);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('upsert', () => {
    /** A taxed order as enrichment stores it: the tax instant and the revision in `taxSummary.fiscalDocument`. */
    const taxedAt = (orderId: string, taxInstant: string, revision: number): OrderUpsert => ({
      ...taxed(orderId, 'store-instant'),
      enrichedPayloadJson: JSON.stringify({
        ...orderPayload(orderId, 'store-instant'),
        taxSummary: { fiscalDocument: { revision, taxInstant } },
      }),
    });

    it('keeps the tax instant of the first receipt: a taxed re-send at another instant changes nothing', async () => {
      const first = await orders.upsert(taxedAt('up-instant', '2026-11-26T10:00:00.000Z', 1), ENRICH);
      expect(first).not.toBeNull();
      expect(await orders.upsert(taxedAt('up-instant', '2026-11-26T10:00:02.000Z', 2), ENRICH)).toBeNull();
      expect(await stored('up-instant')).toMatchObject({ taxInstant: new Date('2026-11-26T10:00:00.000Z'), fiscalGroupRevision: 1 });
      expect((await orders.storedState('up-instant'))?.taxInstant).toEqual(new Date('2026-11-26T10:00:00.000Z'));
      // Taxed again at the stored instant (by the caller): accepted.
      expect(await orders.upsert(taxedAt('up-instant', '2026-11-26T10:00:00.000Z', 1), ENRICH)).toMatchObject({ id: first!.id });
      // An untaxed write keeps the stored instant too.
      const untaxedFirst = await orders.upsert(
        { ...untaxed('up-instant-untaxed', 'store-instant'), taxInstant: new Date('2026-11-26T09:00:00.000Z') },
        ENRICH,
      );
      expect(untaxedFirst).not.toBeNull();
      await orders.upsert({ ...untaxed('up-instant-untaxed', 'store-instant'), taxInstant: new Date('2026-11-26T09:30:00.000Z') }, ENRICH);
      expect((await stored('up-instant-untaxed')).taxInstant).toEqual(new Date('2026-11-26T09:00:00.000Z'));
    });

    it('stores a new order with its first history row, by the actor', async () => {
      const result = await orders.upsert(taxed('up-new', 'store-1'), ENRICH);
      expect(result).toMatchObject({ status: 'ENRICHED', webhookAttempts: 0 });
      const row = await stored('up-new');
      expect(row).toMatchObject({ id: result!.id, storeId: 'store-1', lastChangedBy: '7001', lastChangedVia: ENRICH.via });
      expect(row.enrichedPayload).toMatchObject({ taxNote: 'taxed' });
      expect(await historyOf(row.id)).toEqual([
        expect.objectContaining({ fromStatus: null, toStatus: 'ENRICHED', clientId: '7001', via: ENRICH.via }),
      ]);
    });

    it('a re-send keeps id, created_at and the attempts, refreshes the payloads, and moves an intake status', async () => {
      const before = await order(db.dataSource, {
        orderId: 'up-resend',
        storeId: 'store-2',
        status: 'FORWARD_FAILED',
        webhookAttempts: 3,
        createdAt: new Date('2026-01-02T03:04:05.000Z'),
      });
      const result = await orders.upsert(taxed('up-resend', 'store-2', 'second'), ENRICH);
      expect(result).toMatchObject({ id: before.id, status: 'ENRICHED', webhookAttempts: 3, createdAt: before.createdAt });
      const row = await stored('up-resend');
      expect(row.enrichedPayload).toMatchObject({ taxNote: 'second' });
      expect((await historyOf(before.id)).map((h) => [h.fromStatus, h.toStatus, h.clientId])).toEqual([
        [null, 'FORWARD_FAILED', null],
        ['FORWARD_FAILED', 'ENRICHED', '7001'],
      ]);
    });

    it('a re-send of an order the store works keeps its status (the machine does not move it back), and writes no history', async () => {
      const before = await order(db.dataSource, { orderId: 'up-accepted', storeId: 'store-3', status: 'ACCEPTED' });
      const result = await orders.upsert(taxed('up-accepted', 'store-3', 'refreshed'), ENRICH);
      expect(result).toMatchObject({ id: before.id, status: 'ACCEPTED' });
      expect((await stored('up-accepted')).enrichedPayload).toMatchObject({ taxNote: 'refreshed' });
      expect(await historyOf(before.id)).toHaveLength(1);
    });

    it('refuses (null, nothing written) a re-send naming another store than the one a transfer moved the order to', async () => {
      const before = await order(db.dataSource, {
        orderId: 'up-moved',
        storeId: 'store-moved-to',
        status: 'ENRICHED',
        enrichedPayload: { taxNote: 'of the new store' },
        transferredAt: new Date(),
      });
      expect(await orders.upsert(taxed('up-moved', 'store-moved-from', 'stale'), ENRICH)).toBeNull();
      const row = await stored('up-moved');
      expect(row).toMatchObject({
        storeId: 'store-moved-to',
        enrichedPayload: { taxNote: 'of the new store' },
        updatedAt: before.updatedAt,
      });
      expect(await orders.storedState('up-moved')).toEqual({
        storeId: 'store-moved-to',
        taxed: true,
        transferred: true,
        fiscalGroupId: null,
        status: 'ENRICHED',
        taxInstant: null,
      });

      // The same store is accepted: the caller re-taxed it for the store it is in now.
      expect(await orders.upsert(taxed('up-moved', 'store-moved-to', 'retaxed'), ENRICH)).toMatchObject({ id: before.id });
      expect((await stored('up-moved')).enrichedPayload).toMatchObject({ taxNote: 'retaxed' });
    });

    it('an untaxed re-send never clears stored taxes, but replaces an untaxed order', async () => {
      await order(db.dataSource, { orderId: 'up-taxed', storeId: 'store-4', status: 'ENRICHED', enrichedPayload: { taxNote: 'kept' } });
      expect(await orders.upsert(untaxed('up-taxed', 'store-4'), ENRICH)).toBeNull();
      expect(await stored('up-taxed')).toMatchObject({ status: 'ENRICHED', enrichedPayload: { taxNote: 'kept' } });

      const failed = await order(db.dataSource, { orderId: 'up-untaxed', storeId: 'store-5', status: 'ENRICHMENT_FAILED' });
      const result = await orders.upsert({ ...untaxed('up-untaxed', 'store-5b'), source: 'again' }, ENRICH);
      expect(result).toMatchObject({ id: failed.id, status: 'ENRICHMENT_FAILED' });
      expect(await stored('up-untaxed')).toMatchObject({ storeId: 'store-5b', source: 'again', enrichedPayload: null });
    });
  });

  describe('upserts at once (group commit)', () => {
    /** The statements the repository ran meanwhile, by name. */
    const statementsDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; names: string[] }> => {
      const rows = jest.spyOn(db.get(SqlRunner), 'rows');
      try {
        const result = await work();
        return { result, names: rows.mock.calls.map(([statement]) => statement.name ?? '') };
      } finally {
        rows.mockRestore();
      }
    };

    it('stores the orders sent at once in shared statements, each with its own row, payload and history', async () => {
      const ids = Array.from({ length: 12 }, (_, index) => `gc-${index}`);
      // Sent in one turn of the event loop, with no statement under way: they go together at the end of it, 8 and 4.
      const { result, names } = await statementsDuring(() =>
        Promise.all(ids.map((orderId) => orders.upsert(taxed(orderId, 'store-gc', `note ${orderId}`), ENRICH))),
      );
      expect(names.filter((name) => name.startsWith('order-upsert'))).toEqual(['order-upsert-batch', 'order-upsert-batch']);
      for (const [index, orderId] of ids.entries()) {
        const row = await stored(orderId);
        expect(result[index]).toMatchObject({ id: row.id, status: 'ENRICHED', webhookAttempts: 0, webhookId: row.webhookId });
        expect(row.enrichedPayload).toMatchObject({ taxNote: `note ${orderId}` });
        expect((await historyOf(row.id)).map((h) => [h.fromStatus, h.toStatus, h.clientId])).toEqual([[null, 'ENRICHED', '7001']]);
      }
      expect(new Set(result.map((upserted) => upserted!.webhookId)).size).toBe(ids.length);
    });

    it('holds back a closed order in a shared statement, and stores the orders beside it', async () => {
      const closed = await order(db.dataSource, { orderId: 'gc-closed', storeId: 'store-x', status: 'DELIVERED' });
      const { result, names } = await statementsDuring(() =>
        Promise.all([
          orders.upsert(taxed('gc-open-1', 'store-x'), ENRICH),
          orders.upsert(taxed('gc-closed', 'store-x', 'stale'), ENRICH),
          orders.upsert(taxed('gc-open-2', 'store-x'), ENRICH),
        ]),
      );
      expect(names.filter((name) => name.startsWith('order-upsert'))).toEqual(['order-upsert-batch']);
      expect(result[1]).toBeNull();
      expect(await stored('gc-closed')).toMatchObject({
        status: 'DELIVERED',
        payload: closed.payload,
        enrichedPayload: closed.enrichedPayload,
      });
      expect([result[0]?.status, result[2]?.status]).toEqual(['ENRICHED', 'ENRICHED']);
    });

    it('answers null only for the order whose guard holds it back, and puts one orderId once in a statement', async () => {
      await order(db.dataSource, { orderId: 'gc-moved', storeId: 'store-to', status: 'ENRICHED', transferredAt: new Date() });
      const { result, names } = await statementsDuring(() =>
        Promise.all([
          orders.upsert(taxed('gc-lead', 'store-x'), ENRICH),
          orders.upsert(taxed('gc-moved', 'store-from', 'stale'), ENRICH),
          orders.upsert(taxed('gc-twice', 'store-x', 'first'), ENRICH),
          orders.upsert(taxed('gc-twice', 'store-x', 'second'), ENRICH),
          orders.upsert(taxed('gc-other', 'store-x'), ENRICH),
        ]),
      );
      // The second gc-twice waits for the statement of the first, and then goes alone.
      expect(names.filter((name) => name.startsWith('order-upsert'))).toEqual(['order-upsert-batch', 'order-upsert']);
      expect(result[1]).toBeNull();
      expect((await stored('gc-moved')).storeId).toBe('store-to');
      expect(result[2]).toMatchObject({ id: result[3]!.id });
      expect((await stored('gc-twice')).enrichedPayload).toMatchObject({ taxNote: 'second' });
      expect(result[4]).toMatchObject({ status: 'ENRICHED' });
    });

    it('shares a statement only among writers limited to the same stores, each guard with its own', async () => {
      const limited: Actor = { ...ENRICH, stores: ['store-a'] };
      await order(db.dataSource, { orderId: 'gc-theirs', storeId: 'store-b', status: 'ENRICHED' });
      const { result, names } = await statementsDuring(() =>
        Promise.all([
          orders.upsert(taxed('gc-lead-2', 'store-x'), ENRICH),
          orders.upsert(taxed('gc-theirs', 'store-a'), limited),
          orders.upsert(taxed('gc-mine', 'store-a'), limited),
          orders.upsert(taxed('gc-everyone', 'store-x'), ENRICH),
        ]),
      );
      // Two statements (under way at once): the unlimited writer's orders, and the limited one's.
      expect(names.filter((name) => name.startsWith('order-upsert'))).toEqual(['order-upsert-batch', 'order-upsert-batch']);
      // The limited writer may not overwrite store-b's order; the unlimited one's order beside it is stored.
      expect(result[1]).toBeNull();
      expect((await stored('gc-theirs')).storeId).toBe('store-b');
      expect(result[2]).toMatchObject({ status: 'ENRICHED' });
      expect(result[3]).toMatchObject({ status: 'ENRICHED' });
    });

    it("checks a shared statement's revisions with one reading of the revision table per group and instant, order by order", async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['store-revisions'] });
      const [first] = await db.dataSource.query<Array<{ revision: number; effective_from: Date }>>(
        'SELECT revision, effective_from FROM fiscal_group_revision WHERE fiscal_group_id = $1 ORDER BY revision',
        [group.id],
      );
      // One instant after the group's only revision took effect: that revision is the one in force there.
      const instant = new Date(first!.effective_from.getTime() + 1000).toISOString();
      const taxedBy = (orderId: string, revision: number): readonly unknown[] => [
        orderId,
        'ENRICHED',
        JSON.stringify(orderPayload(orderId, 'store-revisions')),
        JSON.stringify({ ...orderPayload(orderId, 'store-revisions'), taxSummary: { fiscalDocument: { revision, taxInstant: instant } } }),
        'store-revisions',
        'integration',
        group.id,
        ENRICH.clientId,
        ENRICH.via,
        null,
        `msg_${orderId}`,
      ];
      // Eight orders of one group taxed at one instant, the fourth by a revision the table does not have in force there.
      const batch = Array.from({ length: 8 }, (_, index) =>
        taxedBy(`rev-batch-${index}`, index === 3 ? first!.revision + 1 : first!.revision),
      );
      const { stored: storedIds, readings } = await db.dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL track_functions = 'all'`);
        const { statement, values } = upsertBatchStatement(batch);
        const rows = await db.get(SqlRunner).rows(statement, values, manager);
        const [calls] = await manager.query<Array<{ n: string }>>(
          `SELECT pg_stat_get_xact_function_calls('fiscal_group_revision_in_force(uuid, timestamptz)'::regprocedure) AS n`,
        );
        return { stored: rows.map((row) => row.order_id).sort(), readings: Number(calls!.n) };
      });
      expect(storedIds).toEqual(batch.map((values) => values[0] as string).filter((orderId) => orderId !== 'rev-batch-3'));
      // Was one per order (eight), each planning the rule anew.
      expect(readings).toBe(1);
    });

    it("writes each forward's retry job in the statement that stores its order, with that order's webhook-id", async () => {
      const ids = ['gc-forward-1', 'gc-forward-2', 'gc-forward-3'];
      const { result, names } = await statementsDuring(() =>
        Promise.all(ids.map((orderId) => orders.upsert(taxed(orderId, 'store-x'), ENRICH, outboxJob(60_000)))),
      );
      expect(names.filter((name) => name.startsWith('order-upsert'))).toEqual(['order-upsert-batch+webhook-outbox-job']);
      const jobs = await db.dataSource.query<Array<{ order_db_id: string; webhook_id: string }>>(
        `SELECT order_db_id, webhook_id FROM webhook_retry_job WHERE order_db_id = ANY($1::uuid[]) ORDER BY order_db_id`,
        [result.map((upserted) => upserted!.id)],
      );
      expect(jobs).toEqual(
        result
          .map((upserted) => ({ order_db_id: upserted!.id, webhook_id: upserted!.webhookId }))
          .sort((a, b) => a.order_db_id.localeCompare(b.order_db_id)),
      );
    });

    it('stores a large order in a statement of its own, so that the orders sent with it do not wait for it', async () => {
      const large: OrderUpsert = {
        ...taxed('gc-large', 'store-x'),
        enrichedPayloadJson: JSON.stringify({ ...orderPayload('gc-large', 'store-x'), filler: 'x'.repeat(300 * 1024) }),
      };
      const { names } = await statementsDuring(() =>
        Promise.all([
          orders.upsert(taxed('gc-small-1', 'store-x'), ENRICH),
          orders.upsert(large, ENRICH),
          orders.upsert(taxed('gc-small-2', 'store-x'), ENRICH),
        ]),
      );
      expect(names.filter((name) => name.startsWith('order-upsert'))).toEqual(['order-upsert-batch', 'order-upsert']);
      expect((await stored('gc-large')).enrichedPayload).toMatchObject({ orderId: 'gc-large' });
    });

    it('fails only the request whose order PostgreSQL refuses: the others of its statement are stored', async () => {
      const refused: OrderUpsert = { ...taxed('gc-refused', 'store-x'), enrichedPayloadJson: '{"note": "\\u0000"}' };
      const result = await Promise.allSettled([
        orders.upsert(taxed('gc-lead-3', 'store-x'), ENRICH),
        orders.upsert(taxed('gc-kept-1', 'store-x'), ENRICH),
        orders.upsert(refused, ENRICH),
        orders.upsert(taxed('gc-kept-2', 'store-x'), ENRICH),
      ]);
      expect(result.map((settled) => settled.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(String((result[2] as PromiseRejectedResult).reason)).toMatch(/unsupported Unicode escape sequence|\\u0000/);
      expect(await db.dataSource.getRepository(OrderEntity).countBy({ orderId: 'gc-refused' })).toBe(0);
      expect((await stored('gc-kept-2')).status).toBe('ENRICHED');
    });
  });

  describe('the status writer', () => {
    it('applies a forward move (skipping ranks is allowed) with one history row: from, to, actor, label and extra', async () => {
      const before = await order(db.dataSource, { orderId: 'st-legal', status: 'ACCEPTED' });
      const change = await transition('st-legal', 'READY', { label: 'Pronto', extra: { terminal: 'T-9' } });
      expect(change).toEqual({ from: 'ACCEPTED', to: 'READY', changed: true });
      expect(await stored('st-legal')).toMatchObject({ status: 'READY', lastChangedBy: '7002', lastChangedVia: POS.via });
      const history = await historyOf(before.id);
      expect(history).toHaveLength(2);
      expect(history[1]).toMatchObject({
        fromStatus: 'ACCEPTED',
        toStatus: 'READY',
        clientId: '7002',
        via: POS.via,
        label: 'Pronto',
        extra: { terminal: 'T-9' },
      });
    });

    it('each change in one transaction keeps its own label: a later one without a note has none', async () => {
      const before = await order(db.dataSource, { orderId: 'st-two', status: 'ACCEPTED' });
      await db.dataSource.transaction(async (manager) => {
        const locked = await writer.lock(manager, 'st-two');
        await writer.transition(manager, locked, 'IN_PREPARATION', POS, { label: 'Preparando' });
        await writer.transition(manager, locked, 'READY', POS);
      });
      const history = await historyOf(before.id);
      expect(history.slice(1).map((h) => [h.fromStatus, h.toStatus, h.label])).toEqual([
        ['ACCEPTED', 'IN_PREPARATION', 'Preparando'],
        ['IN_PREPARATION', 'READY', null],
      ]);
    });

    it('a repeat of the current status changes nothing and writes no history row', async () => {
      const before = await order(db.dataSource, { orderId: 'st-repeat', status: 'READY' });
      expect(await transition('st-repeat', 'READY')).toEqual({ from: 'READY', to: 'READY', changed: false });
      expect(await historyOf(before.id)).toHaveLength(1);
      expect((await stored('st-repeat')).updatedAt).toEqual(before.updatedAt);
    });

    it.each<[OrderStatus, OrderStatus, string]>([
      ['READY', 'ACCEPTED', 'cannot change from READY back to ACCEPTED'],
      ['IN_PREPARATION', 'ENRICHED', 'cannot change from IN_PREPARATION back to ENRICHED'],
      ['DELIVERED', 'CANCELLED', 'cannot change from DELIVERED to CANCELLED: DELIVERED is a final status'],
      ['REJECTED', 'ACCEPTED', 'cannot change from REJECTED to ACCEPTED: REJECTED is a final status'],
    ])('refuses %s → %s with 409, and leaves the order and its history as they were', async (from, to, reason) => {
      const orderId = `st-illegal-${from}-${to}`;
      const before = await order(db.dataSource, { orderId, status: from });
      await expect(transition(orderId, to)).rejects.toMatchObject({ status: 409, message: `Order ${orderId}: ${reason}` });
      expect(await stored(orderId)).toMatchObject({ status: from, updatedAt: before.updatedAt });
      expect(await historyOf(before.id)).toHaveLength(1);
    });

    it('cancels from any status before a final one', async () => {
      await order(db.dataSource, { orderId: 'st-cancel', status: 'DISPATCHED' });
      expect(await transition('st-cancel', 'CANCELLED')).toMatchObject({ changed: true });
      expect(await stored('st-cancel')).toMatchObject({ status: 'CANCELLED' });
    });

    it('lock answers 404 for an unknown orderId', async () => {
      await expect(db.dataSource.transaction((manager) => writer.lock(manager, 'st-missing'))).rejects.toMatchObject({
        status: 404,
        message: 'Order st-missing not found',
      });
    });
  });
});
