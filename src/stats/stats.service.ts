import { Injectable } from '@nestjs/common';
import { AuditEventsService } from '../audit/audit-events.service.js';
import { FiscalGroupsService } from '../fiscal-groups/fiscal-groups.service.js';
import { ORDER_STATUSES, type OrderStatus } from '../orders/order-status.js';
import { OrderStatsRepository } from '../orders/order-stats.repository.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import type {
  ForwardingStatsDto,
  HourBucketDto,
  OrderIdsTakenDto,
  OrdersPerHourDto,
  StatsRange,
  StatusCountDto,
  StoresMissingFiscalGroupDto,
} from './dto/stats.dto.js';

const HOUR_MS = 3_600_000;
const RANGE_HOURS: Record<StatsRange, number> = { '24h': 24, '7d': 168 };
/** The dashboard lists this many stores missing a group; `total` says how many there are. */
export const MISSING_STORES_SHOWN = 50;

function byStatus(counts: Map<OrderStatus, number>): StatusCountDto[] {
  return ORDER_STATUSES.filter((status) => (counts.get(status) ?? 0) > 0).map((status) => ({ status, count: counts.get(status)! }));
}

/** The dashboard's aggregates, read from the modules that own the data (orders, webhooks, fiscal groups). */
@Injectable()
export class StatsService {
  constructor(
    private readonly orders: OrderStatsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly fiscalGroups: FiscalGroupsService,
    private readonly audit: AuditEventsService,
  ) {}

  async ordersPerHour(range: StatsRange, now = new Date()): Promise<OrdersPerHourDto> {
    const hours = RANGE_HOURS[range];
    // The current hour is the last bucket: the period starts at the top of the hour `hours - 1` before it.
    const first = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
    const rows = await this.orders.countsPerHour(new Date(first));
    const buckets = Array.from({ length: hours }, () => new Map<OrderStatus, number>());
    const totals = new Map<OrderStatus, number>();
    for (const row of rows) {
      const index = Math.round((row.hour.getTime() - first) / HOUR_MS);
      if (index < 0 || index >= hours) continue;
      buckets[index]!.set(row.status, (buckets[index]!.get(row.status) ?? 0) + row.count);
      totals.set(row.status, (totals.get(row.status) ?? 0) + row.count);
    }
    const hourBuckets: HourBucketDto[] = buckets.map((counts, index) => ({
      hour: new Date(first + index * HOUR_MS).toISOString(),
      total: [...counts.values()].reduce((sum, n) => sum + n, 0),
      statuses: byStatus(counts),
    }));
    return { range, from: new Date(first).toISOString(), to: now.toISOString(), hours: hourBuckets, totals: byStatus(totals) };
  }

  async forwarding(range: StatsRange, now = new Date()): Promise<ForwardingStatsDto> {
    const from = new Date(now.getTime() - RANGE_HOURS[range] * HOUR_MS);
    const [outcomes, retryQueue] = await Promise.all([this.deliveries.outcomesSince(from), this.deliveries.queueDepth()]);
    return { range, from: from.toISOString(), to: now.toISOString(), outcomes, retryQueue };
  }

  async orderIdsTaken(range: StatsRange, now = new Date()): Promise<OrderIdsTakenDto> {
    const from = new Date(now.getTime() - RANGE_HOURS[range] * HOUR_MS);
    return { range, from: from.toISOString(), to: now.toISOString(), count: await this.audit.orderIdsTakenSince(from) };
  }

  async storesMissingFiscalGroup(range: StatsRange, now = new Date()): Promise<StoresMissingFiscalGroupDto> {
    const from = new Date(now.getTime() - RANGE_HOURS[range] * HOUR_MS);
    const failing = await this.orders.failedEnrichmentStores(from);
    // A store that got a group since keeps its old failed orders; it no longer misses configuration.
    const held = await this.fiscalGroups.heldStores(failing.map((store) => store.storeId));
    const missing = failing
      .filter((store) => !held.has(store.storeId))
      .sort(
        (a, b) =>
          b.failedOrders - a.failedOrders || b.lastFailedAt.getTime() - a.lastFailedAt.getTime() || a.storeId.localeCompare(b.storeId),
      );
    return {
      range,
      from: from.toISOString(),
      to: now.toISOString(),
      stores: missing.slice(0, MISSING_STORES_SHOWN).map((store) => ({ ...store, lastFailedAt: store.lastFailedAt.toISOString() })),
      total: missing.length,
    };
  }
}
