import { FulfillmentRepository } from '../../src/fulfillment/fulfillment.repository.js';
import { OrderDetailSections } from '../../src/orders/order-detail-sections.js';
import { OrderReadsRepository } from '../../src/orders/order-reads.repository.js';
import type { Actor } from '../../src/common/actor.js';
import type { DispatchedRequestDto, StatusRequestDto, TrackingRequestDto } from '../../src/fulfillment/dto/fulfillment.dto.js';
import type { InfoPaymentsQueryDto } from '../../src/fulfillment/dto/info-payments.dto.js';
import { FulfillmentModule } from '../../src/fulfillment/fulfillment.module.js';
import { FulfillmentService } from '../../src/fulfillment/fulfillment.service.js';
import { OrderDispatchEntity } from '../../src/fulfillment/order-dispatch.entity.js';
import { OrderTrackingEntity } from '../../src/fulfillment/order-tracking.entity.js';
import { OrderEntity, OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import { OrdersQueryService } from '../../src/orders/orders-query.service.js';
import { StatusAliasEntity } from '../../src/status-aliases/status-alias.entity.js';
import { order, orderDispatch, orderPayload, orderTracking, orderTransfer, statusAlias } from '../factories/index.js';
import { bootIntegration, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import { AUDIT } from '../support/audit.js';
import { AuditModule } from '../../src/audit/audit.module.js';

const POS: Actor = { clientId: '7002', via: 'POST /api/order/tracking' };

describe('Fulfillment: status, tracking, dispatch, infoPayments and the detail (integration)', () => {
  let db: IntegrationContext;
  let service: FulfillmentService;

  const stored = (orderId: string) => db.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
  const lastHistory = async (orderDbId: string) =>
    (await db.dataSource.getRepository(OrderStatusHistoryEntity).find({ where: { orderDbId }, order: { id: 'DESC' }, take: 1 }))[0];
  /** A received open body: the documented fields and the others apart, as the route hands them over. */
  const body = <T extends object>(fields: T, extra: Record<string, unknown> | null = null) => ({
    fields,
    extra,
    body: { ...fields, ...extra },
  });

  beforeAll(async () => {
    db = await bootIntegration({ imports: [AuditModule, FulfillmentModule, ...FISCAL_LOOKUP_MODULES], entities: [StatusAliasEntity] });
    service = db.get(FulfillmentService);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('status', () => {
    it('applies a point-of-sale label through the alias table, keeping the label in the history', async () => {
      await statusAlias(db.dataSource, { label: 'Listo para retirar', status: 'READY' });
      const target = await order(db.dataSource, { orderId: 'S-alias', status: 'ACCEPTED' });
      expect(await service.changeStatus(body<StatusRequestDto>({ order_id: 'S-alias', status: 'listo-para-retirar' }), POS, AUDIT)).toEqual(
        {
          message: 'Order S-alias changed from ACCEPTED to READY',
          status: 'success',
          orderStatus: 'READY',
        },
      );
      expect(await lastHistory(target.id)).toMatchObject({ toStatus: 'READY', label: 'listo-para-retirar', clientId: '7002' });
    });

    it('refuses a label that is neither a status nor an alias (400), changing nothing', async () => {
      await order(db.dataSource, { orderId: 'S-unknown', status: 'ACCEPTED' });
      await expect(
        service.changeStatus(body<StatusRequestDto>({ order_id: 'S-unknown', status: 'Teleported' }), POS, AUDIT),
      ).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('status "Teleported" is neither an order status') as unknown,
      });
      expect(await stored('S-unknown')).toMatchObject({ status: 'ACCEPTED' });
    });
  });

  describe('tracking', () => {
    it("keeps a carrier's own status on the tracking record without touching the order", async () => {
      const target = await order(db.dataSource, { orderId: 'K-carrier', status: 'DISPATCHED' });
      const fields: TrackingRequestDto = {
        order_id: 'K-carrier',
        status: 'Saiu para entrega',
        trackingInfo: { trackingNumber: 'BR123', shippingCoordinates: [{ latitude: '-23.56', longitude: -46.65 }] },
      };
      expect((await service.track(body(fields, { carrier: 'Loggi' }), POS, AUDIT)).message).toBe(
        'Tracking registered for order K-carrier; carrier status "Saiu para entrega" kept on the tracking record',
      );
      expect(await stored('K-carrier')).toMatchObject({ status: 'DISPATCHED', updatedAt: target.updatedAt });
      expect(await db.dataSource.getRepository(OrderTrackingEntity).findBy({ orderDbId: target.id })).toEqual([
        expect.objectContaining({
          status: 'Saiu para entrega',
          orderStatusApplied: false,
          trackingNumber: 'BR123',
          trackurl: null,
          shippingCoordinates: [{ latitude: '-23.56', longitude: -46.65 }],
          clientId: '7002',
          extra: { carrier: 'Loggi' },
        }),
      ]);
    });

    it('applies a status value to the order and records that it did', async () => {
      const target = await order(db.dataSource, { orderId: 'K-status', status: 'DISPATCHED' });
      expect((await service.track(body<TrackingRequestDto>({ order_id: 'K-status', status: 'delivered' }), POS, AUDIT)).orderStatus).toBe(
        'DELIVERED',
      );
      expect(await lastHistory(target.id)).toMatchObject({ fromStatus: 'DISPATCHED', toStatus: 'DELIVERED', label: 'delivered' });
      expect(await db.dataSource.getRepository(OrderTrackingEntity).findOneByOrFail({ orderDbId: target.id })).toMatchObject({
        orderStatusApplied: true,
      });
    });

    it('an illegal move refuses the whole call: no tracking record is kept', async () => {
      const target = await order(db.dataSource, { orderId: 'K-illegal', status: 'DELIVERED' });
      await expect(service.track(body<TrackingRequestDto>({ order_id: 'K-illegal', status: 'READY' }), POS, AUDIT)).rejects.toMatchObject({
        status: 409,
      });
      expect(await db.dataSource.getRepository(OrderTrackingEntity).countBy({ orderDbId: target.id })).toBe(0);
    });
  });

  describe('dispatch', () => {
    const dispatch = (orderId: string, transaction: string | number) =>
      service.dispatch(body<DispatchedRequestDto>({ codigo_app: orderId, id_transaccion: transaction }), POS, AUDIT);
    const dispatchesOf = (orderDbId: string) =>
      db.dataSource.getRepository(OrderDispatchEntity).find({ where: { orderDbId }, order: { id: 'ASC' } });

    it('dispatches a pickup order; a repeat of the transaction is stored once, another transaction is kept too', async () => {
      const payload = orderPayload('P-1', 'store-1', { order: { type: 'takeout', products: [] } });
      const target = await order(db.dataSource, { orderId: 'P-1', status: 'READY', payload });
      expect((await dispatch('P-1', 'TX-1')).message).toBe('Order P-1 dispatched (transaction TX-1)');
      expect((await dispatch('P-1', 'TX-1')).message).toBe('Order P-1 was already dispatched (transaction TX-1 recorded)');
      await dispatch('P-1', 998877);
      expect(await stored('P-1')).toMatchObject({ status: 'DISPATCHED' });
      expect((await dispatchesOf(target.id)).map((d) => d.idTransaccion)).toEqual(['TX-1', '998877']);
    });

    it('refuses an order that is not a pickup order (409), storing nothing', async () => {
      const target = await order(db.dataSource, { orderId: 'P-delivery', status: 'READY' });
      await expect(dispatch('P-delivery', 'TX-2')).rejects.toMatchObject({
        status: 409,
        message: expect.stringContaining('Order P-delivery is not a pickup order') as unknown,
      });
      expect(await stored('P-delivery')).toMatchObject({ status: 'READY' });
      expect(await dispatchesOf(target.id)).toEqual([]);
    });
  });

  describe('the order detail', () => {
    it('carries the tracking, transfer and dispatch records of the order, oldest first', async () => {
      const target = await order(db.dataSource, { orderId: 'DET-1' });
      const other = await order(db.dataSource, { orderId: 'DET-other' });
      await orderTracking(db.dataSource, { orderDbId: target.id, status: 'Coletado', createdAt: new Date('2026-03-01T10:00:00Z') });
      await orderTracking(db.dataSource, { orderDbId: target.id, status: 'DELIVERED', orderStatusApplied: true });
      await orderTracking(db.dataSource, { orderDbId: other.id });
      await orderTransfer(db.dataSource, { orderDbId: target.id, refiscalized: true, clientId: '7002' });
      await orderDispatch(db.dataSource, { orderDbId: target.id, idTransaccion: 'TX-DET' });

      // The detail as the app composes it from the sections FulfillmentRepository keeps (OrderDetailSectionsModule).
      const query = new OrdersQueryService(
        db.get(OrderReadsRepository),
        new OrderDetailSections(db.get(FulfillmentRepository).detailSections()),
      );
      const detail = (await query.detail('DET-1')) as unknown as Record<string, unknown>;
      expect(detail.tracking).toEqual([
        expect.objectContaining({ status: 'Coletado', orderStatusApplied: false, at: '2026-03-01T10:00:00.000000Z' }),
        expect.objectContaining({ status: 'DELIVERED', orderStatusApplied: true }),
      ]);
      expect(detail.transfers).toEqual([
        expect.objectContaining({ fromStoreId: 'store-a', toStoreId: 'store-b', refiscalized: true, clientId: '7002' }),
      ]);
      expect(detail.dispatches).toEqual([expect.objectContaining({ idTransaccion: 'TX-DET' })]);
    });
  });

  describe('infoPayments', () => {
    const query = (q: Partial<InfoPaymentsQueryDto>) =>
      service.infoPayments({ startDate: '2025-05-01', endDate: '2025-05-31', ...q } as InfoPaymentsQueryDto);
    const orderIds = async (q: Partial<InfoPaymentsQueryDto>) => (await query(q)).items.map((item) => item.orderId);

    beforeAll(async () => {
      const at = (iso: string) => new Date(iso);
      const placed: Array<[string, string, Record<string, unknown>]> = [
        ['I-before', '2025-04-30T23:59:59.999Z', { country: 'BR' }],
        ['I-first', '2025-05-01T00:00:00.000Z', { country: 'BR', account: 'acc-1' }],
        ['I-mid', '2025-05-15T12:00:00.000Z', { store: { id: 'store-1', country: 'AR', sellerId: 77 } }],
        ['I-nested', '2025-05-20T08:00:00.000Z', { country: 'BR', payments: null }],
        ['I-last', '2025-05-31T23:59:59.999Z', { country: 'BR' }],
        ['I-after', '2025-06-01T00:00:00.000Z', { country: 'BR' }],
      ];
      for (const [orderId, createdAt, extra] of placed) {
        const payload = orderPayload(orderId, 'store-1', extra);
        if (orderId === 'I-nested') (payload.order as Record<string, unknown>).payments = [{ method: 'CARD', value: 10 }];
        await order(db.dataSource, { orderId, storeId: 'store-1', payload, createdAt: at(createdAt) });
      }
    });

    it('a date alone as endDate includes its whole day (UTC), oldest first, with each order’s payments', async () => {
      const answer = await query({});
      expect(answer).toMatchObject({ message: '4 order(s) between 2025-05-01 and 2025-05-31', status: 'success', total: 4, page: 1 });
      expect(answer.items.map((item) => item.orderId)).toEqual(['I-first', 'I-mid', 'I-nested', 'I-last']);
      expect(answer.items[0]).toMatchObject({
        storeId: 'store-1',
        createdAt: '2025-05-01T00:00:00.000Z',
        payments: [{ method: 'PIX', value: 25.9 }],
      });
      // Payments under `order` when the root has none.
      expect(answer.items[2]!.payments).toEqual([{ method: 'CARD', value: 10 }]);
    });

    it('a date-time endDate is an inclusive instant', async () => {
      expect(await orderIds({ endDate: '2025-05-31T23:59:59.998Z' })).toEqual(['I-first', 'I-mid', 'I-nested']);
      expect(await orderIds({ startDate: '2025-05-01T00:00:00.001Z', endDate: '2025-05-31T23:59:59.999Z' })).toEqual([
        'I-mid',
        'I-nested',
        'I-last',
      ]);
    });

    it('filters by a root property or the one under `store`, numbers as text', async () => {
      expect(await orderIds({ country: 'BR' })).toEqual(['I-first', 'I-nested', 'I-last']);
      expect(await orderIds({ country: 'AR', sellerId: '77' })).toEqual(['I-mid']);
      expect(await orderIds({ account: 'acc-1' })).toEqual(['I-first']);
    });

    it('pages', async () => {
      const second = await query({ page: 2, pageSize: 3 });
      expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
      expect(second.items.map((item) => item.orderId)).toEqual(['I-last']);
    });

    it('refuses an end before the start and a window over 93 days, naming the field', async () => {
      await expect(query({ startDate: '2025-05-31', endDate: '2025-05-01' })).rejects.toMatchObject({
        status: 400,
        details: [{ field: 'startDate', problem: 'must not be later than endDate' }],
      });
      await expect(query({ startDate: '2025-01-01', endDate: '2025-04-05' })).rejects.toMatchObject({
        details: [{ field: 'endDate', problem: 'must be at most 93 days after startDate' }],
      });
    });
  });
});
