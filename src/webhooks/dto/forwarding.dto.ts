import { ApiProperty } from '@nestjs/swagger';
import { NfeProblemDto } from '../../fiscal-documents/nfe/dto/nfe-errors.dto.js';
import { NfeItemsDto } from '../../fiscal-documents/nfe/dto/nfe-items.dto.js';

/** 200 of `/enrich-order-forward` and of a redeliver: the webhook accepted the order. */
export class ForwardResponseDto {
  /** What happened; the order itself is not returned */
  @ApiProperty({ example: 'Order ORD-2026-000123 enriched, stored and forwarded: the webhook answered 200 (attempt 1)' })
  message: string;

  /** A redelivery: the webhook's HTTP status (2xx), for a client that says the outcome in its own words */
  @ApiProperty({ type: 'integer', minimum: 200, maximum: 299, example: 200 })
  webhookStatusCode?: number;

  /** A redelivery: the order's `webhookAttempts` after this attempt */
  @ApiProperty({ type: 'integer', minimum: 1, example: 2 })
  attempt?: number;

  /** With `?nfe=`: the order's invoice items, as forwarded beside the payload */
  nfe?: NfeItemsDto;

  /** With `?nfe=`, instead of `nfe`: why the order's items cannot be printed (one entry per cause) */
  nfeProblems?: NfeProblemDto[];
}
