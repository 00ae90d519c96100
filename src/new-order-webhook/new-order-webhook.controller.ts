import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { CurrentActor } from '../auth/current-client.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import type { Actor } from '../common/actor.js';
import { OpenBody, type ReceivedBody } from '../common/http/open-body.js';
import { NEW_ORDER_BODY, NewOrderRequestDto, NewOrderResponseDto } from './dto/new-order.dto.js';
import { NewOrderWebhookService } from './new-order-webhook.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

@ApiTags('Platform webhooks')
@ErrorBodies(ErrorFamily.OAuth)
@Controller('domain-cliente/webhook')
@Auth('platform')
export class NewOrderWebhookController {
  constructor(private readonly webhook: NewOrderWebhookService) {}

  @Post('new-order')
  @HttpCode(200)
  @ApiOperation({
    summary: 'New-order webhook (called by the platform)',
    description:
      'Stores the order with status RECEIVED (or the sent `status` when it is an order status value), source `platform-webhook`, and the body as its payload. ' +
      'Idempotent on `order_id`: the platform retries, and a repeated delivery answers 200 and changes nothing (one row; a status that moved on is never reset). ' +
      'Properties beyond those described are kept. Errors are OAuth-style (`invalid_request`, `invalid_token`, `insufficient_scope`).',
  })
  @ApiBody({
    type: NewOrderRequestDto,
    examples: {
      order: {
        summary: 'A new order',
        value: {
          order_id: 'PLT-2025-000777',
          status: 'RECEIVED',
          customer: { id: 'CUST-5521', name: 'Ana Souza', email: 'ana.souza@example.com.br' },
          items: [
            { product_id: 'burger-01', quantity: 2, price: 25.9 },
            { product_id: 'cola-350', quantity: 1, price: 6.5 },
          ],
          total: 58.3,
        },
      },
    },
  })
  @ApiOkResponse({ type: NewOrderResponseDto, description: 'Stored, or already stored (a repeated delivery)' })
  @ApiErrors([400, 403], {
    400: '`invalid_request`: order_id missing or empty, customer.email not an e-mail, items empty, a quantity not > 0, a price or the total not >= 0, or a status only the service gives (ENRICHED, ENRICHMENT_FAILED, FORWARDED, FORWARD_FAILED); nothing is stored',
    403: '`insufficient_scope`: the token lacks the scope platform; or (STORE_NOT_ALLOWED) the client is limited to stores and `store.id` is not one of them, or the `order_id` is already stored under another store: nothing is stored',
  })
  async newOrder(
    @OpenBody(NewOrderRequestDto, NEW_ORDER_BODY) body: ReceivedBody<NewOrderRequestDto>,
    @CurrentActor() actor: Actor,
  ): Promise<NewOrderResponseDto> {
    await this.webhook.receive(body, actor);
    return { status: 'OK' };
  }
}
