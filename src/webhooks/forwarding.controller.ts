import { Body, Controller, HttpCode, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { CurrentActor } from '../auth/current-client.decorator.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { OrderPayloadDto, WrappedOrderPayloadDto } from '../enrichment/dto/enrichment.dto.js';
import { IfoodOrderDto, ProfileQueryDto } from '../enrichment/dto/order-profile.dto.js';
import {
  IFOOD_PROFILE_DOC,
  ORDER_BODY_DOC,
  PROFILE_400,
  ORDER_STORE_CHANGED_ERROR,
  STORE_NOT_ALLOWED_ERROR,
  STORE_NOT_ALLOWED_EXAMPLE,
} from '../enrichment/enrichment.controller.js';
import { StoreNotAllowedErrorDto } from '../orders/dto/store-errors.dto.js';
import { OrderClosedErrorDto, OrderStoreChangedErrorDto } from '../enrichment/dto/enrichment-errors.dto.js';
import type { Actor } from '../common/actor.js';
import { ForwardResponseDto } from './dto/forwarding.dto.js';
import { ForwardingService } from './forwarding.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

export const WEBHOOK_ERRORS = {
  502: 'WEBHOOK_DELIVERY_FAILED: the webhook answered a non-2xx status (3xx included: redirects are not followed), did not answer within ORDER_WEBHOOK_TIMEOUT_MS, or could not be reached. The attempt is counted and logged; the order is FORWARD_FAILED.',
  503: 'WEBHOOK_NOT_CONFIGURED: ORDER_WEBHOOK_URL is not set (nothing is stored or sent); or SERVICE_UNAVAILABLE: the database is unavailable, a statement ran past its time limit or the instance is shutting down (retry after the seconds in Retry-After)',
};
export const NOT_CONFIGURED_EXAMPLE = {
  message: 'No order webhook is configured (ORDER_WEBHOOK_URL); nothing was stored or sent',
  error: 'WEBHOOK_NOT_CONFIGURED',
};

const SIGNING =
  'The POST carries `content-type: application/json`, `user-agent` and the Standard Webhooks headers `webhook-id` (the same on every attempt of one enriched payload: drop duplicates by it), `webhook-timestamp` (unix seconds) and, with ORDER_WEBHOOK_SECRET, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.';

@ApiTags('Enrichment')
@ApiExtraModels(OrderPayloadDto, WrappedOrderPayloadDto, IfoodOrderDto)
@ErrorBodies(ErrorFamily.AdminApi)
@Controller()
@Auth('orders')
export class ForwardingController {
  constructor(private readonly forwarding: ForwardingService) {}

  @Post('enrich-order-forward')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Compute the taxes of an order, store it and forward it to the order webhook',
    description: `Enriches and stores the order exactly as \`POST /api/enrich-order\` (same body, same 400 and 422), then POSTs the enriched payload alone (the \`payload\` of the /enrich-order answer) to ORDER_WEBHOOK_URL. 200 only when the webhook answered 2xx (order status FORWARDED). Any other outcome is 502 (status FORWARD_FAILED, the order stays stored) and, unless WEBHOOK_RETRY_ENABLED=false, the delivery is retried in the background on WEBHOOK_RETRY_SCHEDULE (honouring Retry-After) until a 2xx. Every attempt increments \`webhookAttempts\`, sets \`webhookLastResponse\` and is kept in the delivery log. ${SIGNING} ${IFOOD_PROFILE_DOC}`,
  })
  @ApiBody(ORDER_BODY_DOC)
  @ApiOkResponse({ type: ForwardResponseDto, description: 'Stored and accepted by the webhook (2xx)' })
  @ApiErrors(
    [400, 403, 409, 413, 415, 422, 502, 503],
    {
      400:
        'Empty body, a body that is not an object, no string orderId (1 to 100 characters), an amount beyond exact precision, an amount, unit price or quantity sent as text with more than 20 digits before the decimal point or 30 after it, or a malformed entry of order.discounts, deliveryFee, serviceCharge or otherCharges (details name its path)' +
        PROFILE_400,
      ...STORE_NOT_ALLOWED_ERROR,
      ...ORDER_STORE_CHANGED_ERROR,
      422:
        'FISCAL_GROUP_NOT_FOUND: no fiscal group holds the store (the order is stored as ENRICHMENT_FAILED and not sent); ' +
        'ORDER_TOO_LARGE: more lines plus selected modifiers than ORDER_MAX_LINES, nothing computed, stored or sent; or amounts whose totals would pass 90071992547409.91 (2^53 - 1 cents), nothing stored or sent',
      ...WEBHOOK_ERRORS,
    },
    {
      403: STORE_NOT_ALLOWED_EXAMPLE,
      502: {
        message:
          'Order ORD-2026-000123 was enriched and stored as FORWARD_FAILED, but the order webhook did not accept it: the receiver answered 503 (attempt 1); it will be retried in 5 s',
        error: 'WEBHOOK_DELIVERY_FAILED',
      },
      503: NOT_CONFIGURED_EXAMPLE,
    },
  )
  @ApiDomainErrors(403, { STORE_NOT_ALLOWED: StoreNotAllowedErrorDto }, { alsoGeneric: true })
  @ApiDomainErrors(409, { ORDER_STORE_CHANGED: OrderStoreChangedErrorDto, ORDER_CLOSED: OrderClosedErrorDto })
  forward(
    @Body() body: unknown,
    @Query() query: ProfileQueryDto,
    @CurrentActor() actor: Actor,
    @Req() request: RawBodyRequest<FastifyRequest>,
  ): Promise<ForwardResponseDto> {
    return this.forwarding.forward(body, actor, request.rawBody, query.profile, query.nfe);
  }
}
