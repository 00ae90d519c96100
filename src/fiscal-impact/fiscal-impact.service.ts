import { Inject, Injectable } from '@nestjs/common';
import { Deadline } from '../common/deadline.js';
import { RequestLane } from '../common/http/request-lane.js';
import { IntakeActivity } from '../common/intake-activity.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalGroupsService } from '../fiscal-groups/fiscal-groups.service.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import { OrderWindowRepository, type WindowOrder, type WindowOrderKey } from '../orders/order-window.repository.js';
import type { FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';
import { DEFAULT_IMPACT_HOURS, type FiscalGroupImpactDto, type FiscalGroupImpactRequestDto } from './dto/fiscal-impact.dto.js';
import type { ImpactFigures } from './impact-tally.js';
import { ImpactWorkerThread } from './impact-worker-thread.js';
import { proposedGroup } from './proposed-group.js';

/** The newest orders of the window compared, at most. */
export const MAX_IMPACT_ORDERS = 10_000;
/** Orders read per statement, at most... */
const BATCH_ORDERS = 250;
/** ...and stored bytes per statement (payload and enriched payload), so that orders of thousands of lines come a few at a time. */
const BATCH_BYTES = 4 * 1024 * 1024;
/**
 * Impact previews one instance runs at once; more are refused with 429. Each holds one pooled
 * connection for its snapshot (and takes another for a moment to read categories), so previews never
 * hold more than four of the pool. See "Expensive requests have a lane" in docs/api-decisions.md.
 */
export const PREVIEWS_AT_ONCE = 2;
/**
 * While order intake is busy, a preview waits this many times the time its last batch took before the
 * next one: each preview then takes about a tenth of the time, and intake keeps the machine.
 */
export const PREVIEW_YIELD_SHARE = 9;
/** Kept of the deadline when waiting for intake, so that a preview that waited can still answer in time. */
const YIELD_MARGIN_MS = 500;
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
  private readonly deadlineMs: number;
  private readonly lane: RequestLane;

  constructor(
    private readonly fiscalGroups: FiscalGroupsService,
    private readonly lookup: FiscalLookupService,
    private readonly orders: OrderWindowRepository,
    private readonly transactions: TransactionRunner,
    private readonly intake: IntakeActivity,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.deadlineMs = config.impactPreviewDeadlineMs;
    // A place frees within the deadline: that is the wait to suggest.
    this.lane = new RequestLane('impact previews', PREVIEWS_AT_ONCE, Math.max(1, Math.ceil(this.deadlineMs / 1000)));
  }

  /** Previews under way in this instance. */
  get inFlight(): number {
    return this.lane.inFlight;
  }

  preview(id: string, body: FiscalGroupImpactRequestDto): Promise<FiscalGroupImpactDto> {
    return this.lane.run(async () => {
      const deadline = new Deadline(this.deadlineMs);
      try {
        return await this.previewWithin(deadline, id, body);
      } catch (error) {
        throw deadline.explain(error);
      }
    });
  }

  private async previewWithin(deadline: Deadline, id: string, body: FiscalGroupImpactRequestDto): Promise<FiscalGroupImpactDto> {
    const { hours = DEFAULT_IMPACT_HOURS, ...groupBody } = body;
    const { group: inForce, storeIds } = await this.groupInForce(id);
    const proposed = proposedGroup(inForce, groupBody);
    const to = new Date();
    const from = new Date(to.getTime() - hours * HOUR_MS);
    // One snapshot for the keys and the payloads (a read-only transaction never fails to serialize).
    const { figures, moreOrdersInWindow } = await this.transactions.run(async (manager) => {
      // Each statement may run only for what is left of the deadline: PostgreSQL cancels it then.
      await this.orders.boundStatements(manager, deadline.statementTimeoutMs());
      const keys = await this.orders.keys(manager, storeIds, from, to, MAX_IMPACT_ORDERS + 1);
      const read = async (ids: string[]) => {
        await this.orders.boundStatements(manager, deadline.statementTimeoutMs());
        return this.orders.payloads(manager, ids);
      };
      const worker = new ImpactWorkerThread({ inForce, proposed, now: to }, deadline);
      try {
        return {
          figures: await this.compare(read, batchesOf(keys.slice(0, MAX_IMPACT_ORDERS)), worker, deadline),
          moreOrdersInWindow: keys.length > MAX_IMPACT_ORDERS,
        };
      } finally {
        await worker.end();
      }
    }, 'REPEATABLE READ');
    return {
      fiscalGroupId: id,
      hours,
      receivedFrom: from.toISOString(),
      receivedTo: to.toISOString(),
      maxOrders: MAX_IMPACT_ORDERS,
      moreOrdersInWindow,
      ...figures,
    } as FiscalGroupImpactDto;
  }

  /** The group that taxes the orders now, with the stores it holds: the one place that decides which group is "in force". */
  private groupInForce(id: string): Promise<GroupInForce> {
    return this.fiscalGroups.taxingSnapshot(id);
  }

  /**
   * Reads the next batch while the worker thread parses and taxes this one. The worker runs at the lowest
   * priority, and while order intake is busy the preview pauses between batches (`PREVIEW_YIELD_SHARE`), so
   * under load it is the preview that slows down (up to its deadline), not order intake.
   */
  private async compare(
    read: (ids: string[]) => Promise<WindowOrder[]>,
    batches: string[][],
    worker: ImpactWorkerThread,
    deadline: Deadline,
  ): Promise<ImpactFigures> {
    let next = batches.length > 0 ? read(batches[0]!) : undefined;
    try {
      for (let index = 0; next; index++) {
        const stepStartedAt = performance.now();
        const orders: WindowOrder[] = await next;
        const { productIds } = await worker.ask({ type: 'batch', orders }, 'products');
        // Not on the snapshot's connection: what an older snapshot reads must not go into the shared cache.
        const categories = await this.lookup.categoriesFor(productIds);
        next = index + 1 < batches.length ? read(batches[index + 1]!) : undefined;
        deadline.check();
        await worker.ask({ type: 'compare', categories }, 'compared');
        await this.intake.yieldTo(performance.now() - stepStartedAt, PREVIEW_YIELD_SHARE, deadline.remainingMs() - YIELD_MARGIN_MS);
      }
      return (await worker.ask({ type: 'figures' }, 'figures')).figures;
    } finally {
      // A read started ahead and left behind by a failure ends with the transaction; its outcome is no one's.
      next?.catch(() => undefined);
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
