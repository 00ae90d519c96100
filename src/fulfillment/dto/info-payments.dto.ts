import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Length } from 'class-validator';
import { PageQueryDto } from '../../common/http/pagination.js';
import { IsIsoDateText } from './validators.js';

const REQUIRED = { message: '$property is required' };

export class InfoPaymentsQueryDto extends PageQueryDto {
  /** Orders created at or after this date (midnight UTC) or date-time. ISO 8601. */
  @ApiProperty({ example: '2025-11-01' })
  @IsDefined(REQUIRED)
  @IsIsoDateText()
  startDate: string;

  /** Orders created up to this date (the whole day, UTC) or date-time (inclusive). ISO 8601; not before `startDate` (a date-time `startDate` may lie anywhere in a date's day), at most 93 days after it (counted to a date's midnight). */
  @ApiProperty({ example: '2025-11-30' })
  @IsDefined(REQUIRED)
  @IsIsoDateText()
  endDate: string;

  /** The payload's root `country`, else `store.country`, equals this text */
  @ApiProperty({ example: 'BR' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  country?: string;

  /** The payload's root `account`, else `store.account`, equals this text */
  @ApiProperty({ example: 'ACC-7781' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  account?: string;

  /** The payload's root `sellerId`, else `store.sellerId`, equals this text (numbers compared as text) */
  @ApiProperty({ example: '5521' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  sellerId?: string;
}

/** One transfer of an order: from which store, to which, by which client, when. */
export class InfoPaymentsTransferDto {
  /** The store the order left (its id); null when the order had no store */
  @ApiProperty({ example: '1201' })
  fromStoreId: string | null;

  /** The store the order moved to (its id) */
  @ApiProperty({ example: '1202' })
  toStoreId: string;

  /** The API client that made the transfer */
  @ApiProperty({ example: '7002' })
  clientId: string | null;

  @ApiProperty({ format: 'date-time', example: '2025-11-21T13:20:05.000Z' })
  at: string;
}

export class InfoPaymentsItemDto {
  @ApiProperty({ example: 'ORD-2025-000123' })
  orderId: string;

  @ApiProperty({ format: 'uuid', example: '3f6d2c1b-8a9e-4f70-b1c2-d3e4f5a6b7c8' })
  orderDbId: string;

  @ApiProperty({ example: '1201' })
  storeId: string | null;

  @ApiProperty({ format: 'date-time', example: '2025-11-21T13:05:42.120Z' })
  createdAt: string;

  /** The payload's root `payments`, else `order.payments`, as stored; null when the order has neither */
  @ApiProperty({
    nullable: true,
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    example: [{ method: 'CREDIT_CARD', brand: 'VISA', value: 42.4, prepaid: true }],
  })
  payments: unknown;

  /**
   * The order's transfers, oldest first; empty when it never moved. An order that reached the store by a transfer says
   * from which store it came, by which client and when: its payments were chosen there, not here.
   */
  transfers: InfoPaymentsTransferDto[];
}

export class InfoPaymentsResponseDto {
  @ApiProperty({ example: '2 order(s) between 2025-11-01 and 2025-11-30' })
  message: string;

  @ApiProperty({ example: 'success' })
  status: 'success';

  /** Orders matching the filters (all pages) */
  @ApiProperty({ type: 'integer', minimum: 0, example: 2 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  pageSize: number;

  /** Oldest first (createdAt, then orderDbId) */
  items: InfoPaymentsItemDto[];
}
