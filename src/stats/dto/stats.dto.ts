import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order-status.js';

export const STATS_RANGES = ['24h', '7d'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export class StatsRangeQuery {
  /** The period, ending now: the last 24 hours or the last 7 days (default 24h; 7d for the stores missing a group). */
  @IsOptional()
  @IsIn(STATS_RANGES)
  range?: StatsRange;
}

export class StatusCountDto {
  @ApiProperty({ enum: ORDER_STATUSES, example: 'ENRICHED' })
  status: OrderStatus;
  @ApiProperty({ type: 'integer', minimum: 0, example: 42 })
  count: number;
}

export class HourBucketDto {
  /** The hour's start (UTC). @example "2026-11-23T09:00:00.000Z" */
  hour: string;
  /** Orders created in that hour: all of them, whatever their status now. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 57 })
  total: number;
  /** Per current status; statuses without orders in the hour are left out. */
  statuses: StatusCountDto[];
}

export class OrdersPerHourDto {
  /** @example "24h" */
  range: StatsRange;
  /** The start of the first hour. @example "2026-11-22T10:00:00.000Z" */
  from: string;
  /** When the figures were read. @example "2026-11-23T09:41:07.120Z" */
  to: string;
  /** Every hour of the period, oldest first, empty hours included (24 or 168). */
  hours: HourBucketDto[];
  /** Orders in the period by current status (the sum of the hours). */
  totals: StatusCountDto[];
}

export class ForwardOutcomesDto {
  /** Attempts answered 2xx. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 120 })
  delivered: number;
  /** Attempts answered 4xx (refused by the receiver). */
  @ApiProperty({ type: 'integer', minimum: 0, example: 3 })
  rejected: number;
  /** Attempts answered with another status (5xx, 1xx, 3xx). */
  @ApiProperty({ type: 'integer', minimum: 0, example: 5 })
  failed: number;
  /** Attempts with no answer: timeout, refused connection, DNS failure. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  noAnswer: number;
}

export class RetryQueueDto {
  /** Retries due now, waiting for the worker. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  due: number;
  /** Retries scheduled for later. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 4 })
  scheduled: number;
}

export class ForwardingStatsDto {
  /** @example "24h" */
  range: StatsRange;
  /** @example "2026-11-22T09:41:07.120Z" */
  from: string;
  /** @example "2026-11-23T09:41:07.120Z" */
  to: string;
  /** Every delivery attempt of the period (forwards, retries and redeliveries) by outcome. */
  outcomes: ForwardOutcomesDto;
  /** The retry queue now. */
  retryQueue: RetryQueueDto;
}

export class OrderIdsTakenDto {
  /** @example "7d" */
  range: StatsRange;
  /** @example "2026-11-16T09:41:07.120Z" */
  from: string;
  /** @example "2026-11-23T09:41:07.120Z" */
  to: string;
  /**
   * Orders of the period that a store-limited client stored first under its store, moved to `<orderId>#moved-<n>` when
   * the platform sent that orderId for another store (audit action `take-order-id`).
   */
  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  count: number;
}

export class StoreMissingFiscalGroupDto {
  /** @example "store-0042" */
  storeId: string;
  /** Orders of the period still ENRICHMENT_FAILED for this store. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 12 })
  failedOrders: number;
  /** The latest of them. @example "2026-11-23T09:12:44.000Z" */
  lastFailedAt: string;
}

export class StoresMissingFiscalGroupDto {
  /** @example "7d" */
  range: StatsRange;
  /** @example "2026-11-16T09:41:07.120Z" */
  from: string;
  /** @example "2026-11-23T09:41:07.120Z" */
  to: string;
  /** Stores no fiscal group holds now, whose orders failed with FISCAL_GROUP_NOT_FOUND, most failed orders first (at most 50). */
  stores: StoreMissingFiscalGroupDto[];
  /** How many such stores there are in all. */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  total: number;
}
