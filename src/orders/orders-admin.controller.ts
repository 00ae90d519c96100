import { Controller, Get, Inject, Optional, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth } from '../auth/auth.decorators.js';
import { CurrentPrincipal } from '../auth/current-client.decorator.js';
import { isAdmin, type Principal } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { ORDER_PERSONAL_DATA_VIEW, personalDataViewOf, type OrderPersonalDataView } from './order-personal-data-view.port.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { OrderListQuery } from './dto/order-list.query.js';
import { OrderDetailDto, OrderPageDto } from './dto/persisted-order.dto.js';
import { OrdersQueryService } from './orders-query.service.js';
import { ORDER_DETAIL_MAX_BYTES, ORDER_LIST_ITEM_MAX_BYTES, ORDER_LIST_PAGE_MAX_BYTES } from './order-size-bounds.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

/** Who sees the customer's contact data, for both routes' descriptions (docs/personal-data.md, "Who sees it"). */
const PERSONAL_DATA_VIEWS =
  "The customer's e-mails, phones and CPF/CNPJ (found as the personal-data lookup finds them) are shown by who asks: in full to a machine client with the `admin` scope; " +
  'masked to a person with the role `support` or `admin` (`a***@example.com`, `(**) *****-4321`, `***.456.789-**`), in the payloads and in every other text of the order (the receiver’s answer, the delivery log); ' +
  'left out for the role `fiscal` (the field is absent from the payloads, `[hidden]` in other texts). An admin reveals them with `POST /api/admin/personal-data/orders/{id}/reveal`, which is audited.';

@ApiTags('Orders (admin)')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/orders')
@Auth('admin', { role: 'support' })
export class OrdersAdminController {
  constructor(
    private readonly orders: OrdersQueryService,
    // Bound by the personal-data module in the app; a context without it shows people nothing rather than everything.
    @Optional() @Inject(ORDER_PERSONAL_DATA_VIEW) private readonly personalData: OrderPersonalDataView | null,
  ) {}

  private viewer(principal: Principal | undefined) {
    const view = personalDataViewOf(principal);
    if (view === 'full') return undefined;
    if (!this.personalData) throw ApiError.unavailable('Orders cannot be shown to people without the personal-data view');
    const port = this.personalData;
    return <T>(order: T): T => port.shown(order, view);
  }

  @Get()
  @ApiOperation({
    summary: 'List stored orders',
    description:
      'A page of stored orders, newest first (`createdAt` desc, then `id` desc), with every filter optional and combinable (AND). ' +
      "`q` is the search box: an orderId, internal id, marketplace order number or store id, and for an admin a customer's e-mail, phone or CPF/CNPJ. " +
      '`total` is exact (not an estimate); `totalPages = ceil(total / pageSize)`, 0 when nothing matches; a page past the end has no items but the right total. ' +
      'Integers must be written as plain digits (`2`, not `2.0` or `1e1`); unknown parameters are refused. ' +
      `The page's size is bounded whatever the orders hold: an order whose JSON is over ${ORDER_LIST_ITEM_MAX_BYTES / 1048576} MiB, ` +
      `or that would take the page past ${ORDER_LIST_PAGE_MAX_BYTES / 1048576} MiB, is listed without \`payload\` and \`enrichedPayload\` ` +
      '(null) and with `payloadOmitted` saying why; its detail route has them. ' +
      PERSONAL_DATA_VIEWS,
  })
  @ApiOkResponse({ type: OrderPageDto, description: 'One page of orders (the schema carries a full example order)' })
  @ApiErrors([400], {
    400: 'A parameter is not an integer, out of range, not a known status, not an ISO 8601 date-time, createdFrom is after createdTo, minWebhookAttempts is above maxWebhookAttempts, or the parameter is unknown',
  })
  async list(
    @Query() query: OrderListQuery,
    @CurrentPrincipal() principal: Principal | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const shown = this.viewer(principal);
    // Only an admin's search box looks at customers (docs/personal-data.md).
    const page = await this.orders.list(query, { findsCustomers: isAdmin(principal) });
    reply.header('content-type', 'application/json; charset=utf-8');
    if (!shown) return page;
    const parsed = JSON.parse(page) as { items: unknown[] };
    return JSON.stringify({ ...parsed, items: parsed.items.map(shown) });
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a stored order with its history',
    description:
      'By internal id (UUID) or by `orderId`. Adds the status history (`history`), tracking updates (`tracking`), store transfers (`transfers`) and the webhook delivery log (`deliveries`), each oldest first. ' +
      `An order whose JSON is over ${ORDER_DETAIL_MAX_BYTES / 1048576} MiB (possible only for orders stored before ORDER_MAX_LINES) comes without its payloads, with \`payloadOmitted\`. ` +
      PERSONAL_DATA_VIEWS,
  })
  @ApiParam({ name: 'id', description: 'The order’s internal id (UUID) or its orderId', example: 'ORD-2026-000123' })
  @ApiOkResponse({ type: OrderDetailDto, description: 'The order with its history and logs' })
  @ApiErrors([400, 404], { 400: 'The id is longer than 100 characters', 404: 'No order has this id or orderId' })
  async detail(@Param('id') id: string, @CurrentPrincipal() principal: Principal | undefined): Promise<OrderDetailDto> {
    const shown = this.viewer(principal);
    const order = await this.orders.detail(id);
    return shown ? shown(order) : order;
  }
}
