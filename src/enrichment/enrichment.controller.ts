import { OrderClosedErrorDto, OrderStoreChangedErrorDto } from './dto/enrichment-errors.dto.js';
import { StoreNotAllowedErrorDto } from '../orders/dto/store-errors.dto.js';
import { Body, Controller, HttpCode, Post, Query, Req, Res, type RawBodyRequest } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Auth, PeopleMay } from '../auth/auth.decorators.js';
import { CurrentActor } from '../auth/current-client.decorator.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import type { Actor } from '../common/actor.js';
import {
  EnrichOrderResponseDto,
  OrderPayloadDto,
  ORDER_EXAMPLE,
  ORDER_WITH_ADJUSTMENTS_EXAMPLE,
  WrappedOrderPayloadDto,
} from './dto/enrichment.dto.js';
import { EnrichProfileQueryDto, IfoodOrderDto } from './dto/order-profile.dto.js';
import { IFOOD_ORDER_EXAMPLE } from './ifood/ifood-order-example.js';
import { EnrichmentService, withJsonMember } from './enrichment.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

export const ORDER_BODY_DOC = {
  description:
    'The order at the root, or wrapped as `{ "payload": order }`; with `?profile=ifood`, the order as iFood\'s order details return it. Properties beyond those described are kept as they are.',
  schema: {
    oneOf: [
      { $ref: getSchemaPath(OrderPayloadDto) },
      { $ref: getSchemaPath(WrappedOrderPayloadDto) },
      { $ref: getSchemaPath(IfoodOrderDto) },
    ],
  },
  examples: {
    root: {
      summary: 'Order at the root (the demo store: taxed when the service runs with SEED_DEMO_DATA=true, else 422 FISCAL_GROUP_NOT_FOUND)',
      value: ORDER_EXAMPLE,
    },
    wrapped: { summary: 'Order under payload (same demo store)', value: { payload: ORDER_EXAMPLE } },
    adjustments: {
      summary: 'A store coupon, a delivery fee the store bills (it delivers) and a discount the platform pays back (same demo store)',
      value: ORDER_WITH_ADJUSTMENTS_EXAMPLE,
    },
    ifood: { summary: "With ?profile=ifood: an order as iFood's order details return it (same demo store)", value: IFOOD_ORDER_EXAMPLE },
  },
};

/** How `?profile=ifood` reads iFood's order, for the descriptions of the routes that take it (docs/ifood-profile.md). */
export const IFOOD_PROFILE_DOC =
  "`?profile=ifood` takes the order as iFood's order details (`GET /order/v1.0/orders/{id}`) return it and maps it before anything else (a store-limited client's store check applies to the mapped store): " +
  '`id` → `orderId`, `merchant.id` → `store.id`, each item → a line of `order.products` (productId: its non-empty `externalCode`, else its `id`; amount: `unitPrice` × `quantity`), ' +
  "each option → a selected modifier (amount: its `price` × the item's `quantity`; where the options do not add up to the item's `optionsPrice`, as on a half-and-half pizza charged at its dearer flavour, the difference is split over them in proportion, half-up, the last one with an amount taking the remainder, so the line and its modifiers total the item's `totalPrice`), " +
  "`benefits[]` → `order.discounts` (one per `sponsorshipValues[]` entry above 0: MERCHANT is the store's own discount, any other sponsor PLATFORM; target CART → ITEMS, ITEM → the item whose `index` (else `id`) is `targetId`, DELIVERY_FEE → DELIVERY_FEE; " +
  'a target that names nothing (a `targetId` that is no item, DELIVERY_FEE on an order without a fee, a target iFood does not document) is the whole cart, ITEMS, with the warning DISCOUNT_TARGET_NOT_FOUND; a benefit without `sponsorshipValues`, or a sponsorship without a name, is PLATFORM with the warning DISCOUNT_SPONSOR_UNKNOWN; a description past 500 characters is cut), ' +
  '`total.deliveryFee` → `order.deliveryFee` (`delivery.deliveredBy` MERCHANT → MERCHANT, IFOOD → PLATFORM), `additionalFees[]` → `order.otherCharges` charged by PLATFORM. ' +
  "Other fields are kept at the root, and the whole iFood order under `sourceOrder`; the warnings of what the order says inconsistently are in `taxSummary.warnings` (their path under `sourceOrder`) and in `intakeWarnings`. Only a body that cannot be read as an order is a 400; its details, like those of any other error about the order, name the paths in iFood's body (`items[0].unitPrice`, `merchant.id`).";

/** The 400 of an unknown profile or a malformed iFood order. */
export const PROFILE_400 =
  "; with ?profile=ifood, an unknown profile or an iFood order that cannot be read as an order: without `id`, `merchant.id` or an `items` array, with a malformed amount, or with more than 100 sponsorship values above 0 (details name the path in iFood's body)";

/** A store-limited client's order of another store ("Clients limited to stores" in docs/api-decisions.md). */
export const STORE_NOT_ALLOWED_ERROR = {
  403: 'FORBIDDEN: the token lacks the scope orders; STORE_NOT_ALLOWED: the client is limited to stores and `store.id` is not one of them, or the `orderId` is already stored under another store (not on a dry run, which reads nothing stored for such a client); nothing is stored',
};

/** The 403 a store-limited client meets, as an example of the response. */
export const STORE_NOT_ALLOWED_EXAMPLE = {
  message: 'This client may not touch store "164"; nothing was stored',
  error: 'STORE_NOT_ALLOWED',
  details: [{ field: 'store.id', problem: 'this client may not touch this store', orderId: 'ORD-2026-000123', storeId: '164' }],
};

/** A re-send racing transfers of the same order (rare): the order moved store while it was stored. */
export const ORDER_STORE_CHANGED_ERROR = {
  409:
    'ORDER_STORE_CHANGED: transfers kept moving the order to another store while it was being stored; nothing was stored, send it again; ' +
    'ORDER_CLOSED: the order is stored as DELIVERED, CANCELLED or REJECTED, so a re-send stores and sends nothing (a dry run still computes)',
};

@ApiTags('Enrichment')
@ApiExtraModels(OrderPayloadDto, WrappedOrderPayloadDto, IfoodOrderDto)
@ErrorBodies(ErrorFamily.AdminApi)
@Controller()
@Auth('orders')
export class EnrichmentController {
  constructor(private readonly enrichment: EnrichmentService) {}

  @Post('enrich-order')
  // The console's tax calculator: people of role fiscal or above, without storing anything.
  @PeopleMay('fiscal', { dryRun: 'true' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Compute the taxes of an order and store it',
    description:
      "Finds the fiscal group holding `store.id` and each product's NCM (by productId, then externalProductId), computes ICMS, PIS and COFINS per line and per selected modifier, and stores the order (upsert by `orderId`: a re-send keeps `orderDbId`). Each taxed line gets a `tax` object; the root gets `taxSummary`. Lines that cannot be taxed get `tax: null` and a warning. Without a fiscal group for the store the order is stored as ENRICHMENT_FAILED and the answer is 422. `?dryRun=true` stores nothing. " +
      IFOOD_PROFILE_DOC,
  })
  @ApiBody(ORDER_BODY_DOC)
  @ApiOkResponse({ type: EnrichOrderResponseDto })
  @ApiErrors(
    [400, 403, 409, 413, 415, 422, 503],
    {
      400:
        'Empty body, a body that is not an object, no string orderId (1 to 100 characters), an amount beyond exact precision, an amount, unit price or quantity sent as text with more than 20 digits before the decimal point or 30 after it, or a malformed entry of order.discounts, deliveryFee, serviceCharge or otherCharges (details name its path)' +
        PROFILE_400,
      ...STORE_NOT_ALLOWED_ERROR,
      ...ORDER_STORE_CHANGED_ERROR,
      422:
        'FISCAL_GROUP_NOT_FOUND: no fiscal group holds the store (the order is stored as ENRICHMENT_FAILED); ' +
        'ORDER_TOO_LARGE: more lines plus selected modifiers than ORDER_MAX_LINES (default 2000), nothing computed or stored; or amounts whose totals would pass 90071992547409.91 (2^53 - 1 cents, beyond exact sums), nothing stored',
    },
    { 403: STORE_NOT_ALLOWED_EXAMPLE },
  )
  @ApiDomainErrors(403, { STORE_NOT_ALLOWED: StoreNotAllowedErrorDto }, { alsoGeneric: true })
  @ApiDomainErrors(409, { ORDER_STORE_CHANGED: OrderStoreChangedErrorDto, ORDER_CLOSED: OrderClosedErrorDto })
  async enrich(
    @Body() body: unknown,
    @Query() query: EnrichProfileQueryDto,
    @CurrentActor() actor: Actor,
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const result = await this.enrichment.enrich(body, actor, {
      dryRun: query.dryRun === true,
      rawBody: request.rawBody,
      profile: query.profile,
      nfe: query.nfe,
    });
    const warnings = result.warningCount;
    const head = {
      message: `Order enriched${warnings ? ` with ${warnings} warning(s)` : ''}${result.order ? '' : ' (dry run: nothing stored)'}`,
      orderDbId: result.order?.id ?? null,
      orderId: result.orderId,
    };
    // The enriched payload was serialized once for the database; the answer reuses those bytes.
    reply.header('content-type', 'application/json; charset=utf-8');
    return withJsonMember(`${JSON.stringify(head).slice(0, -1)},"payload":${result.enrichedJson}}`, result.nfeMember);
  }
}
