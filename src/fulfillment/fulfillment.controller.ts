import { Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { CurrentActor } from '../auth/current-client.decorator.js';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { Consumes } from '../common/http/route-config.js';
import { FORM_URLENCODED } from '../auth/oauth-token.controller.js';
import { FulfillmentBody, type ReceivedBody } from './fulfillment-body.js';
import type { Actor } from '../common/actor.js';
import {
  DispatchedRequestDto,
  FulfillmentResponseDto,
  StatusRequestDto,
  TrackingRequestDto,
  TransferRequestDto,
} from './dto/fulfillment.dto.js';
import { InfoPaymentsQueryDto, InfoPaymentsResponseDto } from './dto/info-payments.dto.js';
import { FulfillmentService } from './fulfillment.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { IllegalStatusTransitionErrorDto } from '../orders/dto/order-errors.dto.js';
import {
  AmbiguousStoreCodeErrorDto,
  NotAPickupOrderErrorDto,
  NotTheOrderStoreErrorDto,
  OrderInFinalStatusErrorDto,
  StoreWithoutFiscalGroupErrorDto,
  UnknownStoreErrorDto,
} from './dto/fulfillment-errors.dto.js';

const BODIES =
  'JSON or `application/x-www-form-urlencoded` (numbers arrive as text); properties beyond the documented ones are kept with the record and shown in the order detail; an empty optional field is taken as not sent. ';

/** A refused status change in the point-of-sale body: the sentence twice, the code and its details. */
function illegalTransitionExample(orderId: string, from: string, to: string, reason: string): object {
  const sentence = `Order ${orderId}: ${reason}`;
  return {
    error: sentence,
    message: sentence,
    code: 'ILLEGAL_STATUS_TRANSITION',
    details: [{ field: 'status', problem: reason, orderId, currentStatus: from, requestedStatus: to }],
  };
}

const ILLEGAL_TRANSITION =
  'ILLEGAL_STATUS_TRANSITION: the status rules refuse the move (backwards, or out of DELIVERED, CANCELLED or REJECTED); nothing changed. The details name the order and both statuses';

const STATUS_RULES =
  'Status rules: RECEIVED, ENRICHED, ENRICHMENT_FAILED, FORWARDED, FORWARD_FAILED (intake, any order among them) < ACCEPTED < IN_PREPARATION < READY < DISPATCHED < DELIVERED; ' +
  'an order moves to any higher rank (skipping allowed), CANCELLED and REJECTED from any non-final status, nothing out of DELIVERED, CANCELLED or REJECTED (409). ' +
  'Sending the current status again changes nothing and answers 200. Every change is recorded in the order history with the client and the route.';

/**
 * Order fulfillment for point-of-sale systems. The global prefix is `/api` and the
 * spec puts another `api` segment after it, so these routes really are `/api/api/order/...`.
 */
@ApiTags('Order fulfillment')
@ErrorBodies(ErrorFamily.PointOfSale)
@Controller('api/order')
@Auth('orders')
export class FulfillmentController {
  constructor(private readonly fulfillment: FulfillmentService) {}

  @Post('tracking')
  @HttpCode(200)
  @Consumes([FORM_URLENCODED])
  @ApiOperation({
    summary: 'Register tracking information of an order',
    description:
      'Stores a tracking record (URL, tracking number, delivery confirmation code, courier coordinates); every call is kept and the newest is the current one. ' +
      "When `status` is an order status or a status alias (`GET /api/admin/status-aliases`) it is applied to the order (409 when the move is not allowed, and then nothing is stored); any other text is kept as the carrier's status on the record only. " +
      BODIES +
      STATUS_RULES,
  })
  @ApiBody({
    type: TrackingRequestDto,
    examples: {
      orderStatus: {
        summary: 'Out for delivery (an order status)',
        value: {
          order_id: 'ORD-2025-000123',
          status: 'DISPATCHED',
          trackingInfo: {
            trackurl: 'https://track.example.com/BR123456789',
            trackingNumber: 'BR123456789',
            deliveryConfirmationCode: '4821',
            shippingCoordinates: [{ latitude: '-23.5629', longitude: '-46.6826' }],
          },
        },
      },
      carrierStatus: {
        summary: "The carrier's own status, order id as a number",
        value: { order_id: 123456, status: 'IN_TRANSIT', trackingInfo: { shippingCoordinates: [{ latitude: -23.57, longitude: -46.69 }] } },
      },
    },
  })
  @ApiOkResponse({ type: FulfillmentResponseDto })
  @ApiErrors(
    [400, 404, 409],
    {
      400: 'Invalid body (missing or ill-typed field, unknown property, bad coordinate)',
      404: 'No order with this order_id',
      409: `The status is an order status the order cannot move to. ${ILLEGAL_TRANSITION}`,
    },
    {
      409: illegalTransitionExample(
        'ORD-2025-000123',
        'DELIVERED',
        'DISPATCHED',
        'cannot change from DELIVERED to DISPATCHED: DELIVERED is a final status',
      ),
    },
  )
  @ApiDomainErrors(409, { ILLEGAL_STATUS_TRANSITION: IllegalStatusTransitionErrorDto })
  tracking(
    @FulfillmentBody(TrackingRequestDto) body: ReceivedBody<TrackingRequestDto>,
    @CurrentActor() actor: Actor,
    @Audited() audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    return this.fulfillment.track(body, actor, audit);
  }

  @Put('transfer')
  @HttpCode(200)
  @Consumes([FORM_URLENCODED])
  @ApiOperation({
    summary: 'Transfer an order to another store',
    description:
      "`from_store` must be the order's current store (its store id, or the `storeCode` configured for it in `/v3/channels-stores`), else 409; `to_store` equal to `from_store` is 400. " +
      "The order's store changes (`storeId` and `payload.store.id`) and the transfer is recorded with `processed_by`, `transfer_reason` and `shipping_address`. " +
      BODIES +
      "When the target store's fiscal group differs from the one that taxed the order, the order is re-enriched with it (its stored taxes change). " +
      'A taxed order cannot move to a store that no fiscal group holds (409); an order without taxes can, and stays without taxes. Orders in a final status cannot move (409). ' +
      'All of it happens in one transaction.',
  })
  @ApiBody({
    type: TransferRequestDto,
    examples: {
      byCode: {
        summary: 'Stores by their configured codes',
        value: {
          order: 'ORD-2025-000123',
          from_store: 'BN-PIN',
          to_store: 'BN-MOE',
          processed_by: 'Carla Mendes',
          transfer_reason: 'Oven out of order at Pinheiros',
          shipping_address: { street: 'Av. Ibirapuera', number: '2927', city: 'São Paulo', state: 'SP', zipCode: '04029-200' },
        },
      },
      byId: {
        summary: 'Ids as numbers',
        value: { order: 123456, from_store: 1201, to_store: 1202, processed_by: 'Carla Mendes', transfer_reason: 'Closer to the customer' },
      },
    },
  })
  @ApiOkResponse({ type: FulfillmentResponseDto })
  @ApiErrors(
    [400, 404, 409],
    {
      400: 'Invalid body, or to_store equal to from_store (or naming the current store)',
      404: 'No order with this order id',
      409:
        "NOT_THE_ORDER_STORE: from_store is not the order's store; ORDER_IN_FINAL_STATUS: the order is DELIVERED, CANCELLED or REJECTED; " +
        'STORE_WITHOUT_FISCAL_GROUP: the target store has no fiscal group while the order carries taxes; AMBIGUOUS_STORE_CODE: to_store is a store code several stores share (send the store id); ' +
        'UNKNOWN_STORE: to_store is neither a store of the channel configuration (by id or code) nor a store of a fiscal group. Nothing changed.',
    },
    {
      409: {
        error: 'from_store "BN-PIN" is not the current store of order ORD-2025-000123 (store "1202")',
        message: 'from_store "BN-PIN" is not the current store of order ORD-2025-000123 (store "1202")',
        code: 'NOT_THE_ORDER_STORE',
        details: [
          {
            field: 'from_store',
            problem: 'is not the current store of the order',
            orderId: 'ORD-2025-000123',
            fromStore: 'BN-PIN',
            storeId: '1202',
          },
        ],
      },
    },
  )
  @ApiDomainErrors(409, {
    NOT_THE_ORDER_STORE: NotTheOrderStoreErrorDto,
    ORDER_IN_FINAL_STATUS: OrderInFinalStatusErrorDto,
    STORE_WITHOUT_FISCAL_GROUP: StoreWithoutFiscalGroupErrorDto,
    AMBIGUOUS_STORE_CODE: AmbiguousStoreCodeErrorDto,
    UNKNOWN_STORE: UnknownStoreErrorDto,
  })
  transfer(
    @FulfillmentBody(TransferRequestDto) body: ReceivedBody<TransferRequestDto>,
    @CurrentActor() actor: Actor,
    @Audited() audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    return this.fulfillment.transfer(body, actor, audit);
  }

  @Post('dispatched')
  @HttpCode(200)
  @Consumes([FORM_URLENCODED])
  @ApiOperation({
    summary: 'Mark a pickup order as dispatched (handed to the customer)',
    description:
      'Only pickup orders: the stored payload has `order.type`, `order.deliveryType` or `deliveryType` equal to PICKUP, TAKEOUT or TAKE_AWAY (any case), or `order.pickup` true; other orders 409. ' +
      'Sets DISPATCHED by the status rules (409 from a final status) and stores `id_transaccion` (a repeat of the same one is stored once). ' +
      BODIES +
      STATUS_RULES,
  })
  @ApiBody({
    type: DispatchedRequestDto,
    examples: {
      text: { summary: 'Ids as text', value: { codigo_app: 'ORD-2025-000124', id_transaccion: 'TX-998877' } },
      numbers: { summary: 'Ids as numbers', value: { codigo_app: 123457, id_transaccion: 998877 } },
    },
  })
  @ApiOkResponse({ type: FulfillmentResponseDto })
  @ApiErrors(
    [400, 404, 409],
    {
      404: 'No order with this codigo_app',
      409: `NOT_A_PICKUP_ORDER: not a pickup order. ${ILLEGAL_TRANSITION}`,
    },
    {
      409: {
        error:
          'Order ORD-2025-000124 is not a pickup order (order.type, order.deliveryType or deliveryType PICKUP, TAKEOUT or TAKE_AWAY, or order.pickup true): only pickup orders are dispatched here',
        message:
          'Order ORD-2025-000124 is not a pickup order (order.type, order.deliveryType or deliveryType PICKUP, TAKEOUT or TAKE_AWAY, or order.pickup true): only pickup orders are dispatched here',
        code: 'NOT_A_PICKUP_ORDER',
        details: [{ field: 'codigo_app', problem: 'is not a pickup order', orderId: 'ORD-2025-000124' }],
      },
    },
  )
  @ApiDomainErrors(409, { NOT_A_PICKUP_ORDER: NotAPickupOrderErrorDto, ILLEGAL_STATUS_TRANSITION: IllegalStatusTransitionErrorDto })
  dispatched(
    @FulfillmentBody(DispatchedRequestDto) body: ReceivedBody<DispatchedRequestDto>,
    @CurrentActor() actor: Actor,
    @Audited() audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    return this.fulfillment.dispatch(body, actor, audit);
  }

  @Post('status')
  @HttpCode(200)
  @Consumes([FORM_URLENCODED])
  @ApiOperation({
    summary: 'Change the status of an order',
    description:
      'The status may be an order status or a point-of-sale label of the alias table (`GET /api/admin/status-aliases`); the history keeps the label as sent. ' +
      BODIES +
      STATUS_RULES,
  })
  @ApiBody({
    type: StatusRequestDto,
    examples: {
      accept: { summary: 'Accept an order', value: { order_id: 'ORD-2025-000123', status: 'ACCEPTED' } },
      numeric: { summary: 'Order id as a number', value: { order_id: 123456, status: 'IN_PREPARATION' } },
      posLabel: { summary: 'A point-of-sale label (alias of READY)', value: { order_id: '0000000826-010111', status: 'Por Asignar' } },
    },
  })
  @ApiOkResponse({ type: FulfillmentResponseDto })
  @ApiErrors(
    [400, 404, 409],
    {
      400: 'Invalid body, or a status that is neither an order status nor an alias (the message lists the accepted values)',
      404: 'No order with this order_id',
      409: `${ILLEGAL_TRANSITION}, and so does the message`,
    },
    { 409: illegalTransitionExample('ORD-2025-000123', 'READY', 'ACCEPTED', 'cannot change from READY back to ACCEPTED') },
  )
  @ApiDomainErrors(409, { ILLEGAL_STATUS_TRANSITION: IllegalStatusTransitionErrorDto })
  status(
    @FulfillmentBody(StatusRequestDto) body: ReceivedBody<StatusRequestDto>,
    @CurrentActor() actor: Actor,
    @Audited() audit: AuditContext,
  ): Promise<FulfillmentResponseDto> {
    return this.fulfillment.changeStatus(body, actor, audit);
  }

  @Get('infoPayments')
  @ApiOperation({
    summary: 'Payments of the orders created in a period',
    description:
      'Orders whose creation time is within `startDate`..`endDate` (ISO 8601 dates or date-times; a date as `endDate` includes that whole day, UTC, so a `startDate` anywhere in that day is before its end; start <= end; at most 93 days apart, counted to the `endDate` as sent), ' +
      "optionally filtered by `country`, `account` and `sellerId` (each matches the stored payload's root property of that name, else the one under `store`), oldest first, paged. " +
      "`payments` is the payload's root `payments`, else `order.payments`, or null. A client limited to stores sees only its stores' orders.",
  })
  @ApiOkResponse({ type: InfoPaymentsResponseDto })
  @ApiErrors([400], {
    400: 'startDate or endDate missing or not an ISO 8601 date, startDate after endDate, a range over 93 days, a bad page or pageSize, an unknown parameter',
  })
  infoPayments(@Query() query: InfoPaymentsQueryDto, @CurrentActor() actor: Actor): Promise<InfoPaymentsResponseDto> {
    return this.fulfillment.infoPayments(query, actor);
  }
}
