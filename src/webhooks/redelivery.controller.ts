import { OrderNotEnrichedErrorDto } from './dto/redelivery-errors.dto.js';
import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { CurrentActor } from '../auth/current-client.decorator.js';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import type { Actor } from '../common/actor.js';
import { ForwardResponseDto } from './dto/forwarding.dto.js';
import { NOT_CONFIGURED_EXAMPLE, WEBHOOK_ERRORS } from './forwarding.controller.js';
import { ForwardingService } from './forwarding.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

@ApiTags('Orders (admin)')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/orders')
@Auth('admin', { role: 'support' })
export class RedeliveryController {
  constructor(private readonly forwarding: ForwardingService) {}

  @Post(':id/redeliver')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a stored order to the order webhook again',
    description:
      "POSTs the order's stored enriched payload to ORDER_WEBHOOK_URL again, signed like the first attempt and with the same `webhook-id` (a receiver that already processed it can drop it). Same rules and answers as `/enrich-order-forward`: 200 on a 2xx (status FORWARDED), 502 otherwise (status FORWARD_FAILED); the attempt is counted in `webhookAttempts` and logged with trigger `redeliver`. A success also cancels the order's pending automatic retry; a failure leaves the retry schedule as it is (it does not start a new one). The order's status only changes while it is in intake (RECEIVED…FORWARD_FAILED).",
  })
  @ApiParam({ name: 'id', description: 'The order UUID (`orderDbId`) or its `orderId`', example: 'ORD-2026-000123' })
  @ApiOkResponse({
    type: ForwardResponseDto,
    description: 'Accepted by the webhook (2xx)',
    example: { message: 'Order ORD-2026-000123 redelivered: the webhook answered 200 (attempt 2)', webhookStatusCode: 200, attempt: 2 },
  })
  @ApiErrors(
    [404, 409, 502, 503],
    {
      404: 'No order with this UUID or orderId',
      409: 'ORDER_NOT_ENRICHED: the order has no enriched payload (its enrichment failed): enrich it first',
      ...WEBHOOK_ERRORS,
    },
    {
      404: { message: 'Order ORD-2026-999999 not found', error: 'NOT_FOUND' },
      409: {
        message:
          'Order ORD-2026-000123 has no enriched payload to send (status ENRICHMENT_FAILED): enrich it first (POST /api/enrich-order or /api/enrich-order-forward)',
        error: 'ORDER_NOT_ENRICHED',
        details: [{ field: 'id', problem: 'the order has no enriched payload', orderId: 'ORD-2026-000123', status: 'ENRICHMENT_FAILED' }],
      },
      502: {
        message: 'Order ORD-2026-000123 was not accepted by the order webhook: no complete answer within 10000 ms (attempt 3)',
        error: 'WEBHOOK_DELIVERY_FAILED',
      },
      503: NOT_CONFIGURED_EXAMPLE,
    },
  )
  @ApiDomainErrors(409, { ORDER_NOT_ENRICHED: OrderNotEnrichedErrorDto })
  redeliver(@Param('id') id: string, @CurrentActor() actor: Actor, @Audited() audit: AuditContext): Promise<ForwardResponseDto> {
    return this.forwarding.redeliver(id, actor, audit);
  }
}
