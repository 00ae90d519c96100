import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as yieldToOtherRequests } from 'node:timers/promises';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalGroupsService } from '../fiscal-groups/fiscal-groups.service.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import { OrderWindowRepository, type WindowOrder, type WindowOrderKey } from '../orders/order-window.repository.js';
import { productIdsOf, TAX_ENGINE, type FiscalGroupSnapshot, type TaxEngine } from '../tax-engine/tax-engine.js';
import { DEFAULT_IMPACT_HOURS, type FiscalGroupImpactDto, type FiscalGroupImpactRequestDto } from './dto/fiscal-impact.dto.js';
import { ImpactTally } from './impact-tally.js';
import { proposedGroup } from './proposed-group.js';

/** The newest orders of the window compared, at most. */
export const MAX_IMPACT_ORDERS = 10_000;
/** Orders read per statement, at most... */
const BATCH_ORDERS = 250;
/** ...and stored bytes per statement (payload and enriched payload), so that orders of thousands of lines come a few at a time. */
const BATCH_BYTES = 4 * 1024 * 1024;
/** Each statement of the preview; past it the answer is a 503, never a long-held connection. */
const STATEMENT_TIMEOUT_MS = 5_000;
const HOUR_MS = 3_600_000;

interface GroupInForce {
  group: FiscalGroupSnapshot;
  storeIds: string[];
}

/**
 * The impact preview: the recent orders of a group's stores taxed twice by the same engine, with the
 * group in force and with a proposed body, and compared; nothing is stored.
 * See "Previewing a change of a fiscal group" in docs/api-decisions.md.
 */
@Injectable()
export class FiscalImpactService {
  constructor(
    private readonly fiscalGroups: FiscalGroupsService,
    private readonly lookup: FiscalLookupService,
    private readonly orders: OrderWindowRepository,
    private readonly transactions: TransactionRunner,
    @Inject(TAX_ENGINE) private readonly engine: TaxEngine,
  ) {}

  async preview(id: string, body: FiscalGroupImpactRequestDto): Promise<FiscalGroupImpactDto> {
    const { hours = DEFAULT_IMPACT_HOURS, ...groupBody } = body;
    const { group: inForce, storeIds } = await this.groupInForce(id);
    const proposed = proposedGroup(inForce, groupBody);
    const to = new Date();
    const from = new Date(to.getTime() - hours * HOUR_MS);
    // One snapshot for the keys and the payloads (a read-only transaction never fails to serialize).
    const { tally, moreOrdersInWindow } = await this.transactions.run(async (manager) => {
      await this.orders.boundStatements(manager, STATEMENT_TIMEOUT_MS);
      const keys = await this.orders.keys(manager, storeIds, from, to, MAX_IMPACT_ORDERS + 1);
      const compared = new ImpactTally();
      await this.compare(manager, batchesOf(keys.slice(0, MAX_IMPACT_ORDERS)), inForce, proposed, compared, to);
      return { tally: compared, moreOrdersInWindow: keys.length > MAX_IMPACT_ORDERS };
    }, 'REPEATABLE READ');
    return {
      fiscalGroupId: id,
      hours,
      receivedFrom: from.toISOString(),
      receivedTo: to.toISOString(),
      maxOrders: MAX_IMPACT_ORDERS,
      moreOrdersInWindow,
      ...tally.figures(),
    } as FiscalGroupImpactDto;
  }

  /** The group that taxes the orders now, with the stores it holds: the one place that decides which group is "in force". */
  private groupInForce(id: string): Promise<GroupInForce> {
    return this.fiscalGroups.taxingSnapshot(id);
  }

  /**
   * Reads the next batch while the engine works on this one (the database works on the other core), and
   * lets other requests in between batches.
   */
  private async compare(
    manager: EntityManager,
    batches: string[][],
    inForce: FiscalGroupSnapshot,
    proposed: FiscalGroupSnapshot,
    tally: ImpactTally,
    now: Date,
  ): Promise<void> {
    let next = batches.length > 0 ? this.orders.payloads(manager, batches[0]!) : undefined;
    for (let index = 0; next; index++) {
      const orders: WindowOrder[] = await next;
      // Not on the snapshot's connection: what an older snapshot reads must not go into the shared cache.
      const categories = await this.lookup.categoriesFor(distinctProductIds(orders));
      next = index + 1 < batches.length ? this.orders.payloads(manager, batches[index + 1]!) : undefined;
      for (const order of orders) {
        const before = this.engine.enrich({ group: inForce, categories, payload: order.payload, now });
        const after = this.engine.enrich({ group: proposed, categories, payload: order.payload, now });
        tally.add({ id: order.id, orderId: order.orderId, receivedAt: order.receivedAt, before, after });
      }
      await yieldToOtherRequests();
    }
  }
}

/** The keys cut into batches of at most BATCH_ORDERS orders and BATCH_BYTES bytes (an order larger than that goes alone). */
export function batchesOf(keys: WindowOrderKey[]): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const key of keys) {
    if (batch.length > 0 && (batch.length >= BATCH_ORDERS || bytes + key.bytes > BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(key.id);
    bytes += key.bytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function distinctProductIds(orders: WindowOrder[]): string[] {
  const ids = new Set<string>();
  for (const order of orders) for (const id of productIdsOf(order.payload)) ids.add(id);
  return [...ids];
}
