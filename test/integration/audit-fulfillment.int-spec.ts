import { AuditModule } from '../../src/audit/audit.module.js';
import type { Actor } from '../../src/common/actor.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import type {
  DispatchedRequestDto,
  StatusRequestDto,
  TrackingRequestDto,
  TransferRequestDto,
} from '../../src/fulfillment/dto/fulfillment.dto.js';
import { FulfillmentModule } from '../../src/fulfillment/fulfillment.module.js';
import { FulfillmentService } from '../../src/fulfillment/fulfillment.service.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import { StatusAliasEntity } from '../../src/status-aliases/status-alias.entity.js';
import { fiscalGroup, order, orderPayload, productCategory } from '../factories/index.js';
import { auditEventsOf } from '../support/audit.js';
import { bootIntegration, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import type { AuditContext } from '../../src/audit/audit-event.types.js';

const POS: Actor = { clientId: '7002', via: 'POST /api/order/status' };
const POS_AUDIT: AuditContext = {
  actor: { type: 'client', id: '7002', name: 'POS Quito 162' },
  requestId: 'req-pos-1',
  address: '198.51.100.9',
};

/** The point-of-sale routes record each change of an order in the transaction that makes it; a refused change records none. */
describe('audit events of fulfillment changes (integration)', () => {
  let db: IntegrationContext;
  let service: FulfillmentService;

  const body = <T extends object>(fields: T) => ({ fields, extra: null, body: { ...fields } as Record<string, unknown> });
  const eventsOf = (orderId: string) => auditEventsOf(db.dataSource, 'order', orderId);

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [AuditModule, FulfillmentModule, ...FISCAL_LOOKUP_MODULES, FiscalGroupsModule, ProductCategoriesModule],
      entities: [StatusAliasEntity],
    });
    service = db.get(FulfillmentService);
  });
  afterAll(() => db.close());

  it('records a status change and a cancellation with the status before and after; a repeat records nothing', async () => {
    await order(db.dataSource, { orderId: 'A-status', status: 'ACCEPTED' });
    await service.changeStatus(body<StatusRequestDto>({ order_id: 'A-status', status: 'READY' }), POS, POS_AUDIT);
    await service.changeStatus(body<StatusRequestDto>({ order_id: 'A-status', status: 'READY' }), POS, POS_AUDIT);
    await service.changeStatus(body<StatusRequestDto>({ order_id: 'A-status', status: 'CANCELLED' }), POS, POS_AUDIT);
    const events = await eventsOf('A-status');
    expect(events.map((event) => [event.action, event.changes])).toEqual([
      ['change-status', { status: { before: 'ACCEPTED', after: 'READY' } }],
      ['cancel', { status: { before: 'READY', after: 'CANCELLED' } }],
    ]);
    expect(events[0]).toMatchObject({
      actorType: 'client',
      actorId: '7002',
      actorName: 'POS Quito 162',
      requestId: 'req-pos-1',
      address: '198.51.100.9',
    });
  });

  it('records nothing for a refused status change (409)', async () => {
    await order(db.dataSource, { orderId: 'A-final', status: 'DELIVERED' });
    await expect(
      service.changeStatus(body<StatusRequestDto>({ order_id: 'A-final', status: 'READY' }), POS, POS_AUDIT),
    ).rejects.toMatchObject({
      status: 409,
    });
    await expect(service.track(body<TrackingRequestDto>({ order_id: 'A-final', status: 'READY' }), POS, POS_AUDIT)).rejects.toMatchObject({
      status: 409,
    });
    expect(await eventsOf('A-final')).toEqual([]);
  });

  it('records a tracking update without the delivery confirmation code, and a dispatch with its transaction', async () => {
    await order(db.dataSource, { orderId: 'A-track', status: 'READY' });
    await service.track(
      body<TrackingRequestDto>({
        order_id: 'A-track',
        status: 'DISPATCHED',
        trackingInfo: { trackingNumber: 'TRK-1', trackurl: 'https://track.example/TRK-1', deliveryConfirmationCode: '4321' },
      }),
      POS,
      POS_AUDIT,
    );
    const [track] = await eventsOf('A-track');
    expect(track).toMatchObject({
      action: 'track',
      changes: {
        status: { before: 'READY', after: 'DISPATCHED' },
        tracking: { before: null, after: { status: 'DISPATCHED', trackingNumber: 'TRK-1', trackurl: 'https://track.example/TRK-1' } },
      },
    });
    expect(JSON.stringify(track!.changes)).not.toContain('4321');

    const payload = orderPayload('A-pickup', 'store-1', { order: { type: 'takeout', products: [] } });
    await order(db.dataSource, { orderId: 'A-pickup', status: 'READY', payload });
    await service.dispatch(body<DispatchedRequestDto>({ codigo_app: 'A-pickup', id_transaccion: 'TX-9' }), POS, POS_AUDIT);
    expect((await eventsOf('A-pickup')).map((event) => [event.action, event.changes])).toEqual([
      ['dispatch', { status: { before: 'READY', after: 'DISPATCHED' }, idTransaccion: { before: null, after: 'TX-9' } }],
    ]);
  });

  it('records a transfer with the store and fiscal group before and after; a refused transfer records nothing', async () => {
    const groupA = await fiscalGroup(db.dataSource, { stores: ['aud-a1'] });
    const groupB = await fiscalGroup(db.dataSource, { stores: ['aud-b1'] });
    await productCategory(db.dataSource, { productId: 'product-burger', ncm: '21069090' });
    await order(db.dataSource, {
      orderId: 'A-move',
      storeId: 'aud-a1',
      status: 'ACCEPTED',
      fiscalGroupId: groupA.id,
      payload: orderPayload('A-move', 'aud-a1'),
    });
    const transfer = (fields: Partial<TransferRequestDto>) =>
      service.transfer(
        body({ processed_by: 'Carla', transfer_reason: 'Oven out of order', ...fields } as TransferRequestDto),
        POS,
        POS_AUDIT,
      );

    await expect(transfer({ order: 'A-move', from_store: 'aud-b1', to_store: 'aud-a1' })).rejects.toMatchObject({ status: 409 });
    expect(await eventsOf('A-move')).toEqual([]);

    await transfer({ order: 'A-move', from_store: 'aud-a1', to_store: 'aud-b1' });
    expect((await eventsOf('A-move')).map((event) => [event.action, event.changes])).toEqual([
      ['transfer', { storeId: { before: 'aud-a1', after: 'aud-b1' }, fiscalGroupId: { before: groupA.id, after: groupB.id } }],
    ]);
  });
});
