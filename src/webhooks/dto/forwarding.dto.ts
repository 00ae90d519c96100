import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_TRIGGERS, type DeliveryTrigger, type WebhookDeliveryEntity } from '../webhook-delivery.entity.js';

/** 200 of `/enrich-order-forward` and of a redeliver: the webhook accepted the order. */
export class ForwardResponseDto {
  @ApiProperty({
    description: 'What happened; the order itself is not returned',
    example: 'Order ORD-2026-000123 enriched, stored and forwarded: the webhook answered 200 (attempt 1)',
  })
  message: string;
}

/** One attempt of the delivery log (`deliveries` of the order detail). */
export class WebhookDeliveryDto {
  @ApiProperty({ example: '42' })
  id: string;
  @ApiProperty({ description: "The order's webhookAttempts after this attempt", example: 2 })
  attempt: number;
  @ApiProperty({ enum: DELIVERY_TRIGGERS, example: 'retry' })
  trigger: DeliveryTrigger;
  @ApiProperty({
    description: 'Standard Webhooks webhook-id, the same on every attempt of one enriched payload',
    example: 'msg_pQ0fZ7bW2x8R1kLmN3vTa9YcE5uHs4Dg',
  })
  webhookId: string;
  @ApiProperty({ description: 'Target, without credentials or query string', example: 'https://erp.example.com/hooks/orders' })
  url: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: {
      'content-type': 'application/json',
      'user-agent': 'order-tax-service/1.0 (Standard Webhooks)',
      'webhook-id': 'msg_pQ0fZ7bW2x8R1kLmN3vTa9YcE5uHs4Dg',
      'webhook-timestamp': '1795267801',
      'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    },
  })
  requestHeaders: Record<string, string>;
  @ApiProperty({ nullable: true, type: Number, description: 'Null when no answer came (timeout, refused connection)', example: 503 })
  statusCode: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'First 4 KiB of the answer body', example: 'Service Unavailable' })
  responseBody: string | null;
  @ApiProperty({ example: 37 })
  durationMs: number;
  @ApiProperty({ nullable: true, type: String, example: 'the receiver answered 503' })
  error: string | null;
  @ApiProperty({ format: 'date-time' })
  attemptedAt: string;
}

export function toWebhookDeliveryDto(entity: WebhookDeliveryEntity): WebhookDeliveryDto {
  return {
    id: entity.id,
    attempt: entity.attempt,
    trigger: entity.trigger,
    webhookId: entity.webhookId,
    url: entity.url,
    requestHeaders: entity.requestHeaders,
    statusCode: entity.statusCode,
    responseBody: entity.responseBody,
    durationMs: entity.durationMs,
    error: entity.error,
    attemptedAt: entity.attemptedAt.toISOString(),
  };
}
