import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import type { EntityManager } from 'typeorm';
import { AuditLog } from '../audit/audit-log.js';
import { ORDER_ID_TAKEN_ACTION } from '../audit/audit-events.service.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import type { Actor } from '../common/actor.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OrdersRepository } from './orders.repository.js';

/**
 * A store cannot squat another store's order id ("An order id stored first by a store's client" in docs/access.md).
 * When an every-store writer's (the platform's) write of an `orderId` was held back because a store-limited client stored
 * that id first under another store, the earlier order moves to `<orderId>#moved-<n>`, `REJECTED`, and the platform's
 * write runs again, in one transaction: the move, the write and the audit event commit together or not at all, and the
 * row lock makes a concurrent send of that order wait.
 */
@Injectable()
export class OrderIdTakeover {
  private readonly taken: Counter<'via'>;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly orders: OrdersRepository,
    private readonly audit: AuditLog,
    metrics: MetricsService,
  ) {
    this.taken = new Counter({
      name: 'order_ids_taken_total',
      help: "Orders a store-limited client stored first under another store, moved to <orderId>#moved-<n> for the platform's order, by route",
      labelNames: ['via'] as const,
      registers: [metrics.registry],
    });
  }

  /**
   * `write`'s result once the squatting order is moved aside; undefined (nothing done) when no store-limited client's
   * order under another store than `storeId` holds `orderId`, or when `actor` is itself limited to stores.
   */
  async take<T>(
    orderId: string,
    storeId: string | null,
    actor: Actor,
    write: (manager: EntityManager) => Promise<T>,
  ): Promise<T | undefined> {
    if (actor.stores) return undefined;
    const outcome = await this.transactions.run(async (manager) => {
      const moved = await this.orders.moveSquattedOrder(manager, orderId, storeId, actor);
      if (!moved) return undefined;
      const result = await write(manager);
      // The id is free in this transaction: a write that stored nothing is a fault, and must not leave the move behind.
      if (!result) throw new Error(`order ${orderId} was moved aside but the platform's write stored nothing`);
      await this.audit.record(manager, auditContextOf(actor), {
        action: ORDER_ID_TAKEN_ACTION,
        target: { type: 'order', id: orderId },
        changes: {
          orderId: { before: orderId, after: moved.movedOrderId },
          status: { before: moved.previousStatus, after: 'REJECTED' },
          storeId: { before: moved.storeId, after: storeId },
          clientId: { before: moved.intakeClientId, after: actor.clientId },
        },
      });
      return { result };
    });
    if (!outcome) return undefined;
    this.taken.inc({ via: actor.via });
    return outcome.result;
  }
}

function auditContextOf(actor: Actor): AuditContext {
  const origin = actor.origin;
  if (!origin)
    return {
      actor: { type: 'client', id: actor.clientId ?? 'unknown', name: actor.clientId ?? 'unknown' },
      requestId: null,
      address: null,
    };
  return { actor: { type: origin.type, id: origin.id, name: origin.name }, requestId: origin.requestId, address: origin.address };
}
