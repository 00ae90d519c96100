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
import { REGISTERED_PROFILES } from './marketplaces/registered-profiles.js';
import { EnrichmentService, withJsonMember } from './enrichment.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

/** Each marketplace's example, as a named example of the body (`?profile=<name>`). */
const PROFILE_EXAMPLES = Object.fromEntries(
  REGISTERED_PROFILES.map((profile) => [
    profile.name,
    { summary: `With ?profile=${profile.name}: an order as ${profile.label} sends it (same demo store)`, value: profile.example },
  ]),
);

/** A marketplace's document by the properties it is read from (all of them required); any other property is kept. */
function marketplaceShape(description: string, properties: Record<string, object>) {
  return { type: 'object', description, required: Object.keys(properties), properties, additionalProperties: true };
}

export const ORDER_BODY_DOC = {
  description:
    'The order at the root, or wrapped as `{ "payload": order }`; with `?profile=<marketplace>`, the order as that marketplace sends it (one example per marketplace below). Properties beyond those described are kept as they are.',
  // anyOf: a marketplace's order in its own shape is any object, so an order may match more than one of them.
  schema: {
    anyOf: [
      { $ref: getSchemaPath(OrderPayloadDto) },
      { $ref: getSchemaPath(WrappedOrderPayloadDto) },
      { $ref: getSchemaPath(IfoodOrderDto) },
      {
        title: 'MarketplaceOrder',
        description: `A marketplace's order in its own shape (?profile=${REGISTERED_PROFILES.map((profile) => profile.name).join(', ')}); see the route's description for each mapping`,
        anyOf: [
          marketplaceShape("Rappi's order", { order_detail: { type: 'object', additionalProperties: true } }),
          marketplaceShape("99Food's order details", { order_info: { type: 'object', additionalProperties: true } }),
          marketplaceShape("99Food's webhook envelope, or Keeta's wrapper, with the order under data", {
            data: { type: 'object', additionalProperties: true },
          }),
          marketplaceShape('An Open Delivery order', {
            id: { type: 'string' },
            merchant: { type: 'object', additionalProperties: true },
            items: { type: 'array', items: { type: 'object', additionalProperties: true } },
          }),
        ],
      },
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
    ...PROFILE_EXAMPLES,
  },
};

/**
 * How each marketplace's order is read (`?profile=`), for the descriptions of the routes that take them
 * (docs/marketplace-profiles.md, docs/ifood-profile.md).
 */
export const PROFILES_DOC =
  "With `?profile=<marketplace>` the body is that marketplace's order, mapped to the service's order before anything else (a store-limited client's store check applies to the mapped store); " +
  "the whole document is kept under `sourceOrder`; what it says inconsistently (its own totals disagreeing with its items: SOURCE_TOTAL_MISMATCH with both figures; a discount without a sponsor: DISCOUNT_SPONSOR_UNKNOWN, taken as the platform's; a target naming nothing: DISCOUNT_TARGET_NOT_FOUND) is a warning, never a refusal; a 400 names paths in the marketplace's document; an unknown profile is a 400 listing the known ones. " +
  REGISTERED_PROFILES.map((profile) => profile.description).join(' ');

/** The 400 of an unknown profile or a malformed iFood order. */
export const PROFILE_400 =
  "; an unknown profile (the message lists the known ones); with ?profile=<marketplace>, a document that cannot be read as an order: without its order id, its store or its items, with a malformed or out-of-range amount (text that is not a number, 1e308), an id that is not text or a whole number, options nested too deep, or more than 100 discount shares above 0 (details name the path in the marketplace's document)";

/** The 422 of a marketplace's notice sent as an order. */
export const NOT_AN_ORDER_422 =
  "NOT_AN_ORDER: with ?profile=<marketplace>, the document is a notice, not an order to tax (a scheduled order's notice, a cancellation or another event; details name the field that says so, such as `action`); nothing computed or stored";

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
      PROFILES_DOC,
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
        'ORDER_TOO_LARGE: more lines plus selected modifiers than ORDER_MAX_LINES (default 2000), nothing computed or stored; or amounts whose totals would pass 90071992547409.91 (2^53 - 1 cents, beyond exact sums), nothing stored; ' +
        NOT_AN_ORDER_422,
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
