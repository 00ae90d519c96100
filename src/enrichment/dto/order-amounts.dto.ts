import { ApiProperty } from '@nestjs/swagger';
import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import type { OutsideInvoiceReason } from '../../tax-engine/invoice-shares.js';
import {
  DISCOUNT_DESCRIPTION_CODES,
  type DiscountDescriptionCode,
  type DiscountDescriptionParams,
} from '../../tax-engine/order-adjustments.js';
import type { OrderAmountKind } from '../../tax-engine/tax-engine.js';

/*
 * The order-level amounts of an order (discounts, delivery fee, service charge, other charges) and what
 * enrichment answers about them. Which of them enter the invoice the group's settings may change: see
 * "Group settings for order-level amounts" in docs/api-decisions.md.
 */

const DESCRIPTION_CODE = {
  enum: [...DISCOUNT_DESCRIPTION_CODES],
  example: 'SPONSORED_BY',
  description:
    "What `description` says, as a code a program or a console translates (set by the marketplace profiles beside their English description): `SPONSORED_BY` (the marketplace's discount, sponsored by `descriptionParams.sponsor`), `SPONSOR_UNKNOWN` (no sponsor named), `PAID_BY_STORE`, `PAID_BY_MARKETPLACE`, `MARKETPLACE_SUPPORT` (the marketplace's support gave it). A malformed code or parameters are left out, never refused",
};
/** The parameters of a discount's `descriptionCode`, each text of at most 500 characters. */
export class DiscountDescriptionParamsDto implements DiscountDescriptionParams {
  @ApiProperty({ example: 'iFood' })
  marketplace: string;
  /** The sponsor as the marketplace names it */
  @ApiProperty({ example: 'IFOOD', required: false })
  sponsor?: string;
  /** The marketplace's promotion type */
  @ApiProperty({ example: '10', required: false })
  promotionType?: string;
  /** The marketplace's own text (a campaign's name), as sent */
  @ApiProperty({ example: 'Cupom BEMVINDO', required: false })
  detail?: string;
}

/** An amount as the order sends it: a JSON number or numeric text, at most 2 decimals after rounding half-up. */
const AMOUNT = {
  oneOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$' },
  ],
};

@OpenObject()
export class OrderDiscountDto {
  /** Greater than 0; a discount larger than what it applies to is capped there (warning DISCOUNT_ABOVE_AMOUNT) */
  @ApiProperty({ ...AMOUNT, example: 5 })
  amount: number | string;
  /** Who pays it: `MERCHANT` (the store grants it: on the invoice as the items' vDesc) or `PLATFORM` / `THIRD_PARTY` (paid back to the store: off the invoice and listed in `taxSummary.thirdPartyPayments`, unless the group's `settings.platformDiscountsReduceBase`) */
  @ApiProperty({ example: 'MERCHANT' })
  sponsor: 'MERCHANT' | 'PLATFORM' | 'THIRD_PARTY';
  /** What it lowers: `ITEMS` (the whole order, split over every taxable item), `ITEM` (the line `order.products[productIndex]` and its modifiers) or `DELIVERY_FEE` (the delivery fee, not below 0, before it is split) */
  @ApiProperty({ example: 'ITEMS' })
  target: 'ITEMS' | 'ITEM' | 'DELIVERY_FEE';
  /** With `target` `ITEM`: the index in `order.products` of the line it lowers */
  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  productIndex?: number;
  @ApiProperty({ example: 'Coupon BEMVINDO5' })
  description?: string;
  @ApiProperty({ ...DESCRIPTION_CODE, required: false })
  descriptionCode?: DiscountDescriptionCode;
  @ApiProperty({ type: DiscountDescriptionParamsDto, required: false })
  descriptionParams?: DiscountDescriptionParams;
}

@OpenObject()
export class OrderDeliveryFeeDto {
  /** The fee the customer pays for delivery */
  @ApiProperty({ ...AMOUNT, example: 7.99 })
  amount: number | string;
  /** Who delivers: `MERCHANT` (the fee is split to the items as vFrete and enters the bases) or `PLATFORM` (kept off the invoice); the group's `settings.deliveryFeeOnInvoice` may override */
  @ApiProperty({ example: 'MERCHANT' })
  deliveredBy: 'MERCHANT' | 'PLATFORM';
}

@OpenObject()
export class OrderServiceChargeDto {
  /** The table-service charge (taxa de serviço): off the invoice up to 10 % of the lines' total (Convênio ICMS 125/11), above it split to the items as vOutro with the warning SERVICE_CHARGE_ABOVE_10_PERCENT */
  @ApiProperty({ ...AMOUNT, example: 9.92 })
  amount: number | string;
}

@OpenObject()
export class OrderOtherChargeDto {
  @ApiProperty({ ...AMOUNT, example: 2 })
  amount: number | string;
  /** Who charges it: `MERCHANT` (packaging billed by the store, say: split to the items as vOutro) or `PLATFORM` (the platform's own fee: kept off the invoice) */
  @ApiProperty({ example: 'MERCHANT' })
  chargedBy: 'MERCHANT' | 'PLATFORM';
  @ApiProperty({ example: 'Packaging' })
  description?: string;
}

export class OutsideInvoiceAmountDto {
  /** Which order-level amount */
  @ApiProperty({ example: 'DISCOUNT' })
  kind: OrderAmountKind;
  /** The amount kept out of every base */
  @ApiProperty({ example: 10 })
  amount: number;
  /**
   * Why it is not on the invoice, as a code a program can read: `PAID_BY_PLATFORM` / `PAID_BY_THIRD_PARTY` (a discount paid back
   * to the store: it receives the full price), `DELIVERY_FEE_OUTSIDE_INVOICE` (a discount of a delivery fee that is itself
   * outside), `DELIVERED_BY_PLATFORM` (the platform delivers: its fee is not the store's revenue), `DELIVERY_FEE_NEVER_ON_INVOICE`
   * (the group's `deliveryFeeOnInvoice` is `NEVER`), `SERVICE_CHARGE_AT_MOST_10_PERCENT` (outside the ICMS base up to 10 % of
   * the items), `CHARGED_BY_PLATFORM` (the platform's own fee), `NO_TAXED_ITEM` (no taxed item to split it over)
   */
  @ApiProperty({ example: 'PAID_BY_PLATFORM' })
  reason: OutsideInvoiceReason;
}

export class ThirdPartyPaymentDto {
  /** What the platform or third party pays the store for the discount; the invoice's payment group (pag) lists it */
  @ApiProperty({ example: 10 })
  amount: number;
  @ApiProperty({ example: 'PLATFORM' })
  sponsor: 'PLATFORM' | 'THIRD_PARTY';
  @ApiProperty({ example: 'Platform campaign' })
  description?: string;
  /** The discount's `descriptionCode`, when it has one */
  @ApiProperty({ ...DESCRIPTION_CODE, required: false })
  descriptionCode?: DiscountDescriptionCode;
  /** The discount's `descriptionParams`, beside its `descriptionCode` */
  @ApiProperty({ type: DiscountDescriptionParamsDto, required: false })
  descriptionParams?: DiscountDescriptionParams;
}
