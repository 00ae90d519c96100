import {
  ambiguousStoreCode,
  notAPickupOrder,
  notTheOrderStore,
  orderInFinalStatus,
  storeWithoutFiscalGroup,
  unknownStore,
} from './dto/fulfillment-errors.dto.js';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { ApiError } from '../common/errors/api-error.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { fiscalConfigurationChanging, FiscalLookupService, MAX_REVISION_RETRIES } from '../fiscal-lookup/fiscal-lookup.service.js';
import { isTerminal, type OrderStatus } from '../orders/order-status.js';
import { OrderStatusWriter } from '../orders/order-status-writer.js';
import { OrdersRepository, type LockedOrder } from '../orders/orders.repository.js';
import { OrderReadsRepository } from '../orders/order-reads.repository.js';
import type { Actor } from '../common/actor.js';
import { productIdsOf, TAX_ENGINE, type TaxEngine } from '../tax-engine/tax-engine.js';
import { withStoreId } from '../enrichment/order-payload.js';
import { withFiscalDocument } from '../enrichment/tax-instant.js';
import { StoresRepository } from '../channels/stores.repository.js';
import { StatusAliasesService } from '../status-aliases/status-aliases.service.js';
import { paymentsWindow } from './date-range.js';
import type { ReceivedBody } from './fulfillment-body.js';
import type { InfoPaymentsItemDto, InfoPaymentsQueryDto, InfoPaymentsResponseDto } from './dto/info-payments.dto.js';
import type {
  DispatchedRequestDto,
  FulfillmentResponseDto,
  StatusRequestDto,
  TrackingRequestDto,
  TransferRequestDto,
} from './dto/fulfillment.dto.js';
import { idString } from './dto/validators.js';
import { FulfillmentRepository } from './fulfillment.repository.js';
import { isPickupOrder } from './pickup.js';
import { orderEvent, statusChange } from './fulfillment-audit.js';

/** Intake statuses that mean "no taxes computed yet": a successful re-enrichment moves them to ENRICHED. */
const NOT_YET_ENRICHED: readonly OrderStatus[] = ['RECEIVED', 'ENRICHMENT_FAILED'];

const PAYMENT_FILTERS = ['country', 'account', 'sellerId'] as const;

function success(message: string, orderStatus: OrderStatus): FulfillmentResponseDto {
  return { message, status: 'success', orderStatus };
}

/**
 * Order fulfillment ("Fulfillment" in docs/api-decisions.md). Each action runs in one transaction on the order row
 * locked `FOR UPDATE`, and every status change goes through `OrderStatusWriter` (the
 * status machine; the history trigger records it with the caller and the route).
 */
@Injectable()
export class FulfillmentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly statuses: OrderStatusWriter,
    private readonly lookup: FiscalLookupService,
    @Inject(TAX_ENGINE) private readonly engine: TaxEngine,
    private readonly aliases: StatusAliasesService,
    private readonly orders: OrdersRepository,
    private readonly orderReads: OrderReadsRepository,
    private readonly records: FulfillmentRepository,
    private readonly stores: StoresRepository,
    private readonly audit: AuditLog,
  ) {}

  async changeStatus(
    { fields: body, extra }: ReceivedBody<StatusRequestDto>,
    actor: Actor,
    audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    const orderId = idString(body.order_id);
    const status = await this.aliases.resolve(body.status);
    if (!status) throw await this.aliases.unknownLabel(body.status);
    return this.transactions.run(async (manager) => {
      const order = await this.statuses.lock(manager, orderId, actor.stores ?? null);
      const change = await this.statuses.transition(manager, order, status, actor, { label: body.status, extra });
      if (change.changed) {
        await this.audit.record(
          manager,
          audit,
          orderEvent(change.to === 'CANCELLED' ? 'cancel' : 'change-status', order, statusChange(change)),
        );
      }
      return success(
        change.changed
          ? `Order ${orderId} changed from ${change.from} to ${change.to}`
          : `Order ${orderId} is already ${change.to}; nothing changed`,
        order.status,
      );
    });
  }

  async track(
    { fields: body, extra }: ReceivedBody<TrackingRequestDto>,
    actor: Actor,
    audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    const orderId = idString(body.order_id);
    const status = await this.aliases.resolve(body.status);
    const appliesStatus = status !== undefined;
    return this.transactions.run(async (manager) => {
      const order = await this.statuses.lock(manager, orderId, actor.stores ?? null);
      const change = status ? await this.statuses.transition(manager, order, status, actor, { label: body.status }) : undefined;
      const info = body.trackingInfo ?? {};
      await this.records.addTracking(manager, {
        orderDbId: order.id,
        status: body.status,
        orderStatusApplied: appliesStatus,
        trackurl: info.trackurl ?? null,
        trackingNumber: info.trackingNumber ?? null,
        deliveryConfirmationCode: info.deliveryConfirmationCode ?? null,
        shippingCoordinates: (info.shippingCoordinates ?? []).map(({ latitude, longitude }) => ({ latitude, longitude })),
        clientId: actor.clientId,
        extra: extra ?? null,
      });
      // The delivery confirmation code is what the customer tells the courier: it stays out of the log.
      const tracking = { status: body.status, trackingNumber: info.trackingNumber ?? null, trackurl: info.trackurl ?? null };
      await this.audit.record(
        manager,
        audit,
        orderEvent('track', order, { ...statusChange(change), tracking: { before: null, after: tracking } }),
      );
      const what = !change
        ? `carrier status "${body.status}" kept on the tracking record`
        : change.changed
          ? `order status changed from ${change.from} to ${change.to}`
          : `order status already ${change.to}`;
      return success(`Tracking registered for order ${orderId}; ${what}`, order.status);
    });
  }

  async dispatch(
    { fields: body, extra }: ReceivedBody<DispatchedRequestDto>,
    actor: Actor,
    audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    const orderId = idString(body.codigo_app);
    const transaction = idString(body.id_transaccion);
    return this.transactions.run(async (manager) => {
      const order = await this.statuses.lock(manager, orderId, actor.stores ?? null);
      if (!isPickupOrder(order.payload)) {
        throw notAPickupOrder(orderId);
      }
      const change = await this.statuses.transition(manager, order, 'DISPATCHED', actor);
      await this.records.addDispatch(manager, {
        orderDbId: order.id,
        idTransaccion: transaction,
        clientId: actor.clientId,
        extra: extra ?? null,
      });
      const dispatched = { ...statusChange(change), idTransaccion: { before: null, after: transaction } };
      await this.audit.record(manager, audit, orderEvent('dispatch', order, dispatched));
      return success(
        change.changed
          ? `Order ${orderId} dispatched (transaction ${transaction})`
          : `Order ${orderId} was already dispatched (transaction ${transaction} recorded)`,
        order.status,
      );
    });
  }

  /**
   * Moves the order to another store. The order's current store must be `from_store` (its id
   * or configured store code). When the target store's fiscal group differs from the one that
   * taxed the order, the order is re-enriched with it. A taxed order cannot move to a store
   * without a fiscal group (409): its stored taxes would be another group's.
   */
  async transfer(
    { fields: body, extra }: ReceivedBody<TransferRequestDto>,
    actor: Actor,
    audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    const orderId = idString(body.order);
    const fromStore = idString(body.from_store);
    const toStore = idString(body.to_store);
    if (fromStore === toStore) throw ApiError.badRequest('to_store must differ from from_store', 'to_store');

    return this.transactions.run(async (manager) => {
      const order = await this.statuses.lock(manager, orderId, actor.stores ?? null);
      if (isTerminal(order.status)) throw orderInFinalStatus(orderId, order.status);
      if (!(await this.isStoreOf(manager, order, fromStore))) throw notTheOrderStore(orderId, fromStore, order.storeId);
      const target = await this.resolveStore(manager, toStore);
      // "Fulfillment" in docs/api-decisions.md: transfers go to a store of the channel configuration or of a fiscal group.
      if (!target.configured && !(await this.lookup.groupIdsByStores([target.storeId], manager)).has(target.storeId)) {
        throw unknownStore(orderId, toStore);
      }
      const targetStoreId = target.storeId;
      if (targetStoreId === order.storeId) {
        throw ApiError.badRequest(`to_store "${toStore}" is the current store of order ${orderId}`, 'to_store');
      }

      const { refiscalize, fiscalGroupId, warnings, targetHasGroup } = await this.moveRetaxed(manager, order, targetStoreId, actor);

      const storeBefore = order.storeId;
      const fiscalGroupBefore = order.fiscalGroupId;
      const change =
        refiscalize && NOT_YET_ENRICHED.includes(order.status)
          ? await this.statuses.transition(manager, order, 'ENRICHED', actor)
          : undefined;
      await this.records.addTransfer(manager, {
        orderDbId: order.id,
        fromStore,
        toStore,
        fromStoreId: order.storeId,
        toStoreId: targetStoreId,
        processedBy: body.processed_by,
        transferReason: body.transfer_reason,
        shippingAddress: body.shipping_address ?? null,
        refiscalized: refiscalize,
        fromFiscalGroupId: order.fiscalGroupId,
        toFiscalGroupId: fiscalGroupId,
        clientId: actor.clientId,
        extra: extra ?? null,
      });
      await this.audit.record(
        manager,
        audit,
        orderEvent('transfer', order, {
          storeId: { before: storeBefore, after: targetStoreId },
          ...(fiscalGroupBefore === fiscalGroupId ? {} : { fiscalGroupId: { before: fiscalGroupBefore, after: fiscalGroupId } }),
          ...statusChange(change),
        }),
      );

      const taxes = refiscalize
        ? `taxes recalculated with fiscal group ${fiscalGroupId}${warnings ? ` (${warnings} warning(s))` : ''}`
        : targetHasGroup
          ? 'same fiscal group, taxes unchanged'
          : 'the store has no fiscal group and the order carries no taxes';
      return success(`Order ${orderId} transferred from store "${order.storeId}" to store "${targetStoreId}"; ${taxes}`, order.status);
    });
  }

  /** The orders of the window; a store-limited client's stores only. */
  async infoPayments(query: InfoPaymentsQueryDto, actor?: Actor): Promise<InfoPaymentsResponseDto> {
    const { window, problems } = paymentsWindow(query.startDate, query.endDate);
    if (!window) throw ApiError.validation(problems);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 20;

    const properties = PAYMENT_FILTERS.flatMap((name) => (query[name] === undefined ? [] : [[name, query[name]] as const]));
    const { total, items: rows } = await this.orderReads.paymentsPage(
      { startUs: window.startUs, endUs: window.endUs, endExclusive: window.endExclusive, properties, stores: actor?.stores ?? null },
      page,
      pageSize,
    );
    // "Transfers leave a trail" in docs/access.md: a store sees which orders another store moved to it, and who did.
    const chains = await this.records.transferChains(rows.map((row) => row.id));
    const items: InfoPaymentsItemDto[] = rows.map((row) => ({
      orderId: row.orderId,
      orderDbId: row.id,
      storeId: row.storeId,
      createdAt: row.createdAt.toISOString(),
      payments: row.payments ?? null,
      transfers: chains.get(row.id) ?? [],
    }));
    return {
      message: `${total} order(s) between ${query.startDate} and ${query.endDate}`,
      status: 'success',
      total,
      page,
      pageSize,
      items,
    };
  }

  /** `store` names the order's store: its id, or the `storeCode` configured for that store. */
  private async isStoreOf(manager: EntityManager, order: LockedOrder, store: string): Promise<boolean> {
    if (order.storeId === null) return false;
    if (order.storeId === store) return true;
    return this.stores.hasCode(order.storeId, store, manager);
  }

  /**
   * A configured store id as it is; else the store id of the configured store with that code; else the text itself,
   * not `configured`.
   */
  private async resolveStore(manager: EntityManager, store: string): Promise<{ storeId: string; configured: boolean }> {
    const matches = await this.stores.matching(store, manager);
    if (matches.length === 0) return { storeId: store, configured: false };
    if (matches[0]!.byId) return { storeId: matches[0]!.storeId, configured: true };
    if (matches.length > 1) {
      throw ambiguousStoreCode(
        store,
        matches.map((match) => match.storeId),
      );
    }
    return { storeId: matches[0]!.storeId, configured: true };
  }

  /**
   * Moves the locked order to the target store, re-taxed by the target's group when it is another one, by the revision
   * in force at the order's own tax instant (not the transfer's). Read again and re-taxed when the order's storing
   * statement finds that revision no longer in force ("Which revision taxes an order" in
   * docs/fiscal-configuration-over-time.md).
   */
  private async moveRetaxed(
    manager: EntityManager,
    order: LockedOrder,
    targetStoreId: string,
    actor: Actor,
  ): Promise<{ refiscalize: boolean; fiscalGroupId: string | null; warnings: number; targetHasGroup: boolean }> {
    const taxInstant = order.taxInstant ?? new Date();
    const payload = withStoreId(order.payload, targetStoreId);
    for (let attempt = 1; ; attempt++) {
      const inForce = await this.lookup.groupAt(targetStoreId, taxInstant, manager);
      const group = inForce?.group;
      if (!group && order.fiscalGroupId) throw storeWithoutFiscalGroup(order.orderId, targetStoreId, order.fiscalGroupId);
      const refiscalize = group !== undefined && group.id !== order.fiscalGroupId;
      let enriched = order.enrichedPayload ? withStoreId(order.enrichedPayload, targetStoreId) : null;
      let warnings = 0;
      if (refiscalize && group) {
        const categories = await this.lookup.categoriesFor(productIdsOf(payload), manager);
        const result = this.engine.enrich({ group, categories, payload });
        withFiscalDocument(result, inForce!.revision, taxInstant);
        enriched = result.payload;
        warnings = result.warnings.length;
      }
      const fiscalGroupId = refiscalize && group ? group.id : order.fiscalGroupId;
      const move = {
        storeId: targetStoreId,
        payload,
        enrichedPayload: enriched,
        fiscalGroupId,
        fiscalGroupRevision: refiscalize ? inForce!.revision : null,
        taxInstant,
      };
      if (await this.orders.moveStore(manager, order, move, actor))
        return { refiscalize, fiscalGroupId, warnings, targetHasGroup: !!group };
      if (attempt >= MAX_REVISION_RETRIES) throw fiscalConfigurationChanging(order.orderId);
      this.lookup.invalidate();
    }
  }
}
