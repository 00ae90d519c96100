import { ApiProperty } from '@nestjs/swagger';

/** 200 of `/enrich-order-forward` and of a redeliver: the webhook accepted the order. */
export class ForwardResponseDto {
  /** What happened; the order itself is not returned */
  @ApiProperty({ example: 'Order ORD-2026-000123 enriched, stored and forwarded: the webhook answered 200 (attempt 1)' })
  message: string;
}
