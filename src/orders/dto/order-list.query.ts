import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import { parseIsoDateTime } from '../../common/iso-date-time.js';
import { IsIsoDateTime, MAX_INTEGER_PARAM, plainInteger, WithinFilterRange } from '../../common/http/query-params.js';
import { ORDER_STATUSES, type OrderStatus } from '../order-status.js';

export { MAX_INTEGER_PARAM };
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `createdFrom <= createdTo` when both are valid date-times (compared at full precision). */
function NotAfterCreatedTo() {
  return ValidateBy({
    name: 'notAfterCreatedTo',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const from = parseIsoDateTime(value);
        const to = parseIsoDateTime((args?.object as OrderListQuery).createdTo);
        return from === undefined || to === undefined || from <= to;
      },
      defaultMessage: () => 'must not be after createdTo',
    },
  });
}

/** `minWebhookAttempts <= maxWebhookAttempts` when both are integers. */
function NotAboveMaxAttempts() {
  return ValidateBy({
    name: 'notAboveMaxWebhookAttempts',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const max = (args?.object as OrderListQuery).maxWebhookAttempts;
        return !Number.isInteger(value) || !Number.isInteger(max) || (value as number) <= max!;
      },
      defaultMessage: () => 'must not be greater than maxWebhookAttempts',
    },
  });
}

/** Query of `GET /api/admin/orders`: every filter optional; unknown parameters are refused (400). */
export class OrderListQuery {
  /** Page number, from 1 */
  @ApiProperty({ type: 'integer', maximum: MAX_INTEGER_PARAM, default: 1, example: 1 })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_PARAM)
  page?: number;

  /** Orders per page */
  @ApiProperty({ type: 'integer', maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, example: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize?: number;

  /** Only orders of this store (exact, case-sensitive) */
  @ApiProperty({ example: 'store-0042' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  storeId?: string;

  /** Only orders from this origin (exact, case-sensitive): a marketplace read through its profile (`ifood`, `rappi`, `99food`, `opendelivery`, `keeta`), or what the platform's order says in `source` */
  @ApiProperty({ example: 'ifood' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  source?: string;

  @ApiProperty({
    description:
      "The search box: only orders whose orderId, internal id (a UUID), marketplace order number (`marketplaceOrderNumber`, such as iFood's short `displayId`) or store id is exactly this text (surrounding spaces ignored); " +
      'for an admin (a person with the role `admin`, or a client with the scope `admin`) also the orders of the customer whose e-mail, phone or CPF/CNPJ it is, found through the personal-data lookup keys (never a scan of the payloads). ' +
      'For other roles the text is never compared with customers. Combines (AND) with the other filters.',
    example: '3813',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  q?: string;

  /** Only orders in this status */
  @ApiProperty({ example: 'DELIVERED' })
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;

  @ApiProperty({
    description:
      'Only orders whose orderId contains this text, case-insensitive; `%`, `_` and `\\` are matched literally (not as wildcards). Served by a trigram index from 3 characters on.',
    example: '3b98cb',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  orderId?: string;

  /** Only orders created at or after this instant (inclusive). ISO 8601 date-time; without a zone it is UTC; up to 9 fractional digits (orders are stored to the microsecond). */
  @ApiProperty({ format: 'date-time', example: '2026-11-21T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  @WithinFilterRange()
  @NotAfterCreatedTo()
  createdFrom?: string;

  /** Only orders created at or before this instant (inclusive). A whole day ends at 23:59:59.999999 (or use the next midnight minus one microsecond). Must not be before createdFrom. */
  @ApiProperty({ format: 'date-time', example: '2026-11-21T23:59:59.999999Z' })
  @IsOptional()
  @IsIsoDateTime()
  @WithinFilterRange()
  createdTo?: string;

  /** Only orders with at least this many webhook delivery attempts ("the webhook kept failing": 3) */
  @ApiProperty({ type: 'integer', maximum: MAX_INTEGER_PARAM, example: 3 })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGER_PARAM)
  @NotAboveMaxAttempts()
  minWebhookAttempts?: number;

  /** Only orders with at most this many webhook delivery attempts; must not be below minWebhookAttempts */
  @ApiProperty({ type: 'integer', maximum: MAX_INTEGER_PARAM, example: 10 })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGER_PARAM)
  maxWebhookAttempts?: number;
}
