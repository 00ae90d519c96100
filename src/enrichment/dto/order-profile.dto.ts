import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import { KeepPassingQueries } from '../../common/http/validation.js';
import { EnrichQueryDto } from './enrichment.dto.js';
import { PROFILE_NAMES } from '../marketplaces/registered-profiles.js';
import { NFE_MODELS, type NfeModel } from '../../fiscal-documents/nfe/nfe-layout.js';

/**
 * The order shapes the enrichment routes read (`?profile=`): `standard`, the service's own (the default), or another
 * platform's. `standard` is listed first and is the documented example so that a tool filling in every optional
 * parameter (Postman's importer does) sends the service's own shape with its example body.
 */
export const ORDER_PROFILES = PROFILE_NAMES;
/** A `?profile=` value (checked against the registered profiles). */
export type OrderProfile = string;
const PROFILE_DESCRIPTION =
  "The body's shape: `standard` (the default) is the service's own order; any other is a marketplace's order (ifood, rappi, 99food, opendelivery, keeta), mapped to the service's shape before anything else";

/** Its few values are the marketplaces' and models' names: the pipe keeps each passing query (`KeepPassingQueries`). */
@KeepPassingQueries()
export class ProfileQueryDto {
  @ApiProperty({ enum: ORDER_PROFILES, required: false, example: 'standard', description: PROFILE_DESCRIPTION })
  @IsOptional()
  @IsIn(ORDER_PROFILES, { message: `must be one of: ${ORDER_PROFILES.join(', ')}` })
  profile?: OrderProfile;

  /** Also answer the order's invoice items: 65 (NFC-e) or 55 (NF-e). The answer (and a forwarded body) gains `nfe`, the items as `GET /api/orders/{orderId}/nfe` answers them, or `nfeProblems` (why the order cannot be printed) and is otherwise unchanged */
  @ApiProperty({ enum: NFE_MODELS, required: false, example: '65' })
  @IsOptional()
  @IsIn(NFE_MODELS, { message: `must be one of: ${NFE_MODELS.join(', ')}` })
  nfe?: NfeModel;
}

@KeepPassingQueries()
export class EnrichProfileQueryDto extends EnrichQueryDto {
  @ApiProperty({ enum: ORDER_PROFILES, required: false, example: 'standard', description: PROFILE_DESCRIPTION })
  @IsOptional()
  @IsIn(ORDER_PROFILES, { message: `must be one of: ${ORDER_PROFILES.join(', ')}` })
  profile?: OrderProfile;

  /** Also answer the order's invoice items: 65 (NFC-e) or 55 (NF-e). The answer (and a forwarded body) gains `nfe`, the items as `GET /api/orders/{orderId}/nfe` answers them, or `nfeProblems` (why the order cannot be printed) and is otherwise unchanged; with `dryRun` too */
  @ApiProperty({ enum: NFE_MODELS, required: false, example: '65' })
  @IsOptional()
  @IsIn(NFE_MODELS, { message: `must be one of: ${NFE_MODELS.join(', ')}` })
  nfe?: NfeModel;
}

/** The store, as iFood names it */
@OpenObject()
export class IfoodMerchantDto {
  /** iFood's id of the store: the service's `store.id` */
  @ApiProperty({ example: 'demo-store-1' })
  id: string;
}

/** An option (complement) of an item, priced per unit of the item */
@OpenObject()
export class IfoodOptionDto {
  @ApiProperty({ example: '7978ce07-e944-4103-b2eb-73db23e817ab' })
  id: string;
  /** The store's code of the option: the modifier's productId when not empty (else `id`) */
  @ApiProperty({ example: 'demo-brownie' })
  externalCode?: string;
  /** Units per unit of the item */
  @ApiProperty({ example: 2 })
  quantity?: number;
  @ApiProperty({ example: 2.5 })
  unitPrice?: number;
  /** unitPrice × quantity, per unit of the item */
  @ApiProperty({ example: 5 })
  price?: number;
}

/** An item of the order: a line */
@OpenObject()
export class IfoodItemDto {
  /** What a benefit's `targetId` names the item by */
  @ApiProperty({ example: 1 })
  index?: number;
  @ApiProperty({ example: 'c9c55bb4-494e-443c-bbe8-de58f08d92b8' })
  id: string;
  /** The store's code of the product: the line's productId when not empty (else `id`) */
  @ApiProperty({ example: 'demo-ice-cream' })
  externalCode?: string;
  @ApiProperty({ example: 1 })
  quantity: number;
  @ApiProperty({ example: 10 })
  unitPrice: number;
  /** quantity × the sum of the options' prices, as iFood charged them */
  @ApiProperty({ example: 15 })
  optionsPrice?: number;
  /** quantity × unitPrice + optionsPrice: what the line and its modifiers total */
  @ApiProperty({ example: 25 })
  totalPrice?: number;
  options?: IfoodOptionDto[];
}

/** An order as iFood's order details return it (`?profile=ifood`); every other field is kept */
@OpenObject()
export class IfoodOrderDto {
  /** iFood's order id: the service's `orderId` */
  @ApiProperty({ example: '30357a33-385d-4a2f-87ba-bc4e99da1115' })
  id: string;
  merchant: IfoodMerchantDto;
  items: IfoodItemDto[];
  /** Discounts, each with who pays it (`sponsorshipValues`) and what it applies to (`target`: CART, ITEM, DELIVERY_FEE); a target that names nothing is the whole cart (warning DISCOUNT_TARGET_NOT_FOUND), a benefit without sponsors is taken as paid back by the platform (warning DISCOUNT_SPONSOR_UNKNOWN) */
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  benefits?: Array<Record<string, unknown>>;
  /** iFood's own fees (`type`, `value`), e.g. SMALL_ORDER_FEE */
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  additionalFees?: Array<Record<string, unknown>>;
  /** `deliveryFee` is the delivery fee */
  @ApiProperty({ type: 'object', additionalProperties: true })
  total?: Record<string, unknown>;
  /** `deliveredBy`: MERCHANT (the store delivers) or IFOOD */
  @ApiProperty({ type: 'object', additionalProperties: true })
  delivery?: Record<string, unknown>;
}
