import { ApiExtraModels, ApiProperty, getSchemaPath, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import type { TaxWarningCode } from '../../tax-engine/tax-engine.js';
import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import { NfeProblemDto } from '../../fiscal-documents/nfe/dto/nfe-errors.dto.js';
import { NfeItemsDto } from '../../fiscal-documents/nfe/dto/nfe-items.dto.js';
import { ENRICHED_ORDER_EXAMPLE, ORDER_EXAMPLE, ORDER_WITH_ADJUSTMENTS_EXAMPLE } from '../../demo/order-examples.js';
import {
  OrderDeliveryFeeDto,
  OrderDiscountDto,
  OrderOtherChargeDto,
  OrderServiceChargeDto,
  OutsideInvoiceAmountDto,
  ThirdPartyPaymentDto,
} from './order-amounts.dto.js';

export class EnrichQueryDto {
  /** Compute and return the enrichment without storing anything (`orderDbId` is null) */
  @ApiProperty({ default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'must be true or false' })
  dryRun?: boolean;
}

@OpenObject()
export class PriceAmountDto {
  /** Line amount (quantity included), the tax base; absent, the amount is read from the unit price as if there were no `totalPrice` */
  @ApiProperty({ example: 25.9 })
  total?: number;
}

@OpenObject()
export class UnitPriceDto {
  /** Price of one unit; absent, the item's own `unitPrice` is read, else the item gets the warning MISSING_AMOUNT */
  @ApiProperty({ example: 25.9 })
  total?: number;
}

@OpenObject()
@ApiExtraModels(UnitPriceDto)
export class PriceDto {
  /** The amount taxed; when absent, the amount is round(unitPrice × quantity, 2) and the line's `tax.amountFrom` says so */
  totalPrice?: PriceAmountDto;
  /** Price of one unit, as `{ total }` or a number; read only when `totalPrice` is absent, with the line's `quantity` */
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(UnitPriceDto) }, { type: 'number' }] })
  unitPrice?: UnitPriceDto | number;
}

export class LineTaxDto {
  /** The product's own 8-digit NCM, as it goes on the invoice */
  @ApiProperty({ example: '21069090' })
  NCM: string;
  @ApiProperty({ example: '' })
  CEST: string;
  @ApiProperty({ example: '5102' })
  CFOP: string | null;
  @ApiProperty({ example: '00' })
  CST_ICMS: string;
  @ApiProperty({ example: 18 })
  ICMS_rate: number;
  @ApiProperty({ example: '01' })
  CST_PIS: string;
  @ApiProperty({ example: 0.65 })
  PIS_rate: number;
  @ApiProperty({ example: '01' })
  CST_COFINS: string;
  @ApiProperty({ example: 3 })
  COFINS_rate: number;
  /** The rule's reduction of the ICMS base (pRedBC, percent); present when the rule carries one */
  @ApiProperty({ example: 33.33 })
  ICMS_base_reduction?: number;
  /** netAmount (the line amount when the order carries no share), or round(netAmount × (100 − ICMS_base_reduction) / 100, 2) when the rule reduces the base */
  @ApiProperty({ example: 25.9 })
  ICMS_base: number;
  /** round(ICMS_base × ICMS_rate / 100, 2), half-up; 0 for a zero CST or CSOSN */
  @ApiProperty({ example: 4.66 })
  ICMS_value: number;
  /** netAmount (the line amount when the order carries no share) minus ICMS_value, or netAmount when the group keeps ICMS in the base; FCP is not subtracted */
  @ApiProperty({ example: 21.24 })
  PIS_base: number;
  @ApiProperty({ example: 0.14 })
  PIS_value: number;
  @ApiProperty({ example: 21.24 })
  COFINS_base: number;
  @ApiProperty({ example: 0.64 })
  COFINS_value: number;
  /** FCP (Fundo de Combate à Pobreza) percent; FCP fields are present when the rule carries FCP_rate */
  @ApiProperty({ example: 2 })
  FCP_rate?: number;
  /** Equal to ICMS_base */
  @ApiProperty({ example: 25.9 })
  FCP_base?: number;
  /** round(FCP_base × FCP_rate / 100, 2), half-up; 0 where ICMS is not charged (reason in zeroReasons.FCP) */
  @ApiProperty({ example: 0.52 })
  FCP_value?: number;
  /** ICMS_value + PIS_value + COFINS_value + FCP_value */
  @ApiProperty({ example: 5.44 })
  total_tax: number;
  /** Which category field matched the product */
  @ApiProperty({ example: 'productId' })
  matchedBy: 'productId' | 'externalProductId';
  /** The matrix key whose rule was applied (a prefix of NCM on a fallback match) */
  @ApiProperty({ example: '21069090' })
  matchedKey: string;
  /** Why a tax (ICMS, FCP, PIS, COFINS) is zero although its rate may not be: CST_<code>, CSOSN_<code>, or SIMPLES_NACIONAL (PIS/COFINS of a Simples Nacional group, paid through the DAS) */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { ICMS: 'CST_60', PIS: 'CST_04', COFINS: 'CST_04' } })
  zeroReasons: Record<string, string>;
  /** Tax reform (informative) */
  @ApiProperty({ example: '000' })
  CST_IBSCBS?: string;
  @ApiProperty({ example: '000001' })
  cClassTrib?: string;
  /** Line amount − ICMS − PIS − COFINS */
  @ApiProperty({ example: 74.42 })
  IBSCBS_base?: number;
  @ApiProperty({ example: 0.9 })
  CBS_rate?: number;
  /** Informative; not in total_tax */
  @ApiProperty({ example: 0.67 })
  CBS_value?: number;
  @ApiProperty({ example: 0.1 })
  IBS_UF_rate?: number;
  @ApiProperty({ example: 0.07 })
  IBS_UF_value?: number;
  @ApiProperty({ example: 0 })
  IBS_Mun_rate?: number;
  @ApiProperty({ example: 0 })
  IBS_Mun_value?: number;
  /** This item's share of the order's discounts on the invoice (vDesc): each order-level amount is split over the taxable items in proportion to their amounts, each share rounded half-up to the cent, the last taxable item taking the remainder; present, with freight, otherCharges and netAmount, when the order carries an amount that enters the invoice */
  @ApiProperty({ example: 1.3 })
  discount?: number;
  /** This item's share of the delivery fee on the invoice (vFrete), split as discount is */
  @ApiProperty({ example: 2.08 })
  freight?: number;
  /** This item's share of the other charges on the invoice (vOutro): the store's charges and a service charge above 10 %, split as discount is */
  @ApiProperty({ example: 0 })
  otherCharges?: number;
  /** The line amount − discount + freight + otherCharges: the base before any reduction; the emitter prints exactly these shares (vDesc, vFrete, vOutro) so that its bases match these taxes */
  @ApiProperty({ example: 26.68 })
  netAmount?: number;
  /** `unitPrice×quantity` when the item had no `price.totalPrice` and its amount is round(unitPrice × quantity, 2) */
  @ApiProperty({ example: 'unitPrice×quantity' })
  amountFrom?: 'unitPrice×quantity';
}

export class TaxWarningDto {
  @ApiProperty({ example: 'PRODUCT_CATEGORY_NOT_FOUND' })
  code: TaxWarningCode;
  @ApiProperty({ example: 'order.products[0].modifierGroups[0].selectedModifiers[1]' })
  path: string;
  @ApiProperty({ example: 'No product fiscal category for productId "no-onion"' })
  message: string;
}

export class TaxTotalsDto {
  /** Sum of the taxed line amounts */
  @ApiProperty({ example: 35.4 })
  base: number;
  @ApiProperty({ example: 4.91 })
  ICMS_value: number;
  @ApiProperty({ example: 0.16 })
  PIS_value: number;
  @ApiProperty({ example: 0.74 })
  COFINS_value: number;
  /** The sum of the lines’ FCP_value (never rounded once over the document); present when a rule carries FCP_rate */
  @ApiProperty({ example: 0.52 })
  FCP_value?: number;
  /** Exactly the sum of the lines’ total_tax */
  @ApiProperty({ example: 5.81 })
  total_tax: number;
  /** Present when a rule carries IBS/CBS rates */
  @ApiProperty({ example: 74.42 })
  IBSCBS_base?: number;
  @ApiProperty({ example: 0.67 })
  CBS_value?: number;
  @ApiProperty({ example: 0.07 })
  IBS_UF_value?: number;
  @ApiProperty({ example: 0 })
  IBS_Mun_value?: number;
  /** Sum of the lines' discount shares (the invoice's vDesc total); present when the order carries an amount that enters the invoice */
  @ApiProperty({ example: 5 })
  discount?: number;
  /** Sum of the lines' freight shares (vFrete) */
  @ApiProperty({ example: 7.99 })
  freight?: number;
  /** Sum of the lines' otherCharges shares (vOutro) */
  @ApiProperty({ example: 0 })
  otherCharges?: number;
}

/** Which revision of the fiscal group taxed the order, chosen by the order's tax instant. */
export class FiscalDocumentDto {
  /** The revision in force at `taxInstant` (null for a group without revisions) */
  @ApiProperty({ type: 'integer', minimum: 1, example: 3 })
  revision: number | null;
  /**
   * The payload's `createdAt` when it is a date-time with its UTC offset (`Z` or `±hh:mm`: a local time without one
   * names no instant) from 24 hours before the first receipt to 5 minutes after it, else the first receipt
   */
  @ApiProperty({ format: 'date-time', example: '2026-11-21T15:30:00.000Z' })
  taxInstant: string;
}

export class TaxSummaryDto {
  @ApiProperty({ format: 'uuid' })
  fiscalGroupId: string;
  @ApiProperty({ example: 'ERP-SP-001' })
  externalId: string | null;
  @ApiProperty({ example: 'SP' })
  uf: string;
  @ApiProperty({ example: 'LUCRO_PRESUMIDO' })
  taxRegime: string | null;
  totals: TaxTotalsDto;
  /** Lines that could not be taxed (they carry tax: null), never silent; at most the first 100 (see warningsTruncated) */
  @ApiProperty({ maxItems: 100 })
  warnings: TaxWarningDto[];
  /** How many more warnings there were beyond the 100 listed; absent when all are listed */
  @ApiProperty({ type: 'integer', minimum: 1, example: 12 })
  warningsTruncated?: number;
  /** Order-level amounts kept out of the invoice and of every base, each with the reason; present when there is one */
  outsideInvoice?: OutsideInvoiceAmountDto[];
  /** Discounts the platform or a third party pays back to the store, for the invoice's payment group; present when there is one */
  thirdPartyPayments?: ThirdPartyPaymentDto[];
  @ApiProperty({ example: '1.2.0' })
  engineVersion: string;
  @ApiProperty({ format: 'date-time' })
  calculatedAt: string;
  /** The fiscal group revision that taxed the order and the order's tax instant */
  fiscalDocument?: FiscalDocumentDto;
}

@OpenObject()
export class SelectedModifierDto {
  /** Matched like a line's; absent or matching no category, the modifier is left untaxed (`tax: null`) with the warning PRODUCT_CATEGORY_NOT_FOUND */
  @ApiProperty({ example: 'demo-extra-cheese' })
  productId?: string;
  /** The modifier's amount; with neither `totalPrice.total` nor a unit price and `quantity`, it is left untaxed (`tax: null`) with the warning MISSING_AMOUNT */
  price?: PriceDto;
  /** Units; with `price.unitPrice`, gives the amount when `price.totalPrice` is absent */
  @ApiProperty({ example: 2 })
  quantity?: number;
  /** Added by enrichment; null when the modifier could not be taxed */
  tax?: LineTaxDto | null;
}

@OpenObject()
export class ModifierGroupDto {
  /** Each is taxed on its own amount; a group without this array is left as it is */
  selectedModifiers?: SelectedModifierDto[];
}

@OpenObject()
export class OrderLineDto {
  /** Matched against product fiscal categories (productId, then externalProductId); absent or matching no category, the line is left untaxed (`tax: null`) with the warning PRODUCT_CATEGORY_NOT_FOUND */
  @ApiProperty({ example: 'demo-burger' })
  productId?: string;
  /** The line's amount; with neither `totalPrice.total` nor a unit price and `quantity`, the line is left untaxed (`tax: null`) with the warning MISSING_AMOUNT */
  price?: PriceDto;
  /** Units; with `price.unitPrice`, gives the amount when `price.totalPrice` is absent */
  @ApiProperty({ example: 2 })
  quantity?: number;
  modifierGroups?: ModifierGroupDto[];
  /** Added by enrichment; null when the line could not be taxed */
  tax?: LineTaxDto | null;
}

@OpenObject()
export class OrderDetailsDto {
  /** The lines; without this array nothing is taxed, with the warning NO_PRODUCTS */
  products?: OrderLineDto[];
  /** Order-level discounts: the store's are split to the items (vDesc), the others are paid back to the store and stay off the invoice */
  discounts?: OrderDiscountDto[];
  /** The delivery fee: split to the items as freight (vFrete) when the store delivers */
  deliveryFee?: OrderDeliveryFeeDto;
  serviceCharge?: OrderServiceChargeDto;
  /** Other order-level charges: the store's are split to the items (vOutro), the platform's stay off the invoice */
  otherCharges?: OrderOtherChargeDto[];
}

@OpenObject()
export class StoreOfOrderDto {
  /** Finds the fiscal group; absent, as for an order without `store`: 422 FISCAL_GROUP_NOT_FOUND */
  @ApiProperty({ example: 'demo-store-1' })
  id?: string;
}

/** The store of a taxed order: the one whose fiscal group taxed it (a transferred order's current store). */
@OpenObject()
export class TaxedStoreDto {
  @ApiProperty({ example: 'demo-store-1' })
  id: string;
}

/** The ordering platform's order. Only these fields are read; every other property is kept as is. */
@OpenObject()
export class OrderPayloadDto {
  /** Business identifier; the order is stored (upserted) by it */
  @ApiProperty({ example: 'ORD-2026-000123', minLength: 1, maxLength: 100 })
  orderId: string;
  @ApiProperty({ example: 'ifood' })
  source?: string;
  /** Its `id` finds the fiscal group; without it, 422 FISCAL_GROUP_NOT_FOUND, and the order is stored as ENRICHMENT_FAILED (unless it is stored with taxes already, or on a dry run) */
  store?: StoreOfOrderDto;
  /** The lines and order-level amounts; without it nothing is taxed, with the warning NO_PRODUCTS */
  order?: OrderDetailsDto;
}

@OpenObject()
export class EnrichedOrderPayloadDto extends OmitType(OrderPayloadDto, ['store'] as const) {
  /** A taxed order always has its store */
  store: TaxedStoreDto;
  taxSummary: TaxSummaryDto;
}

export class WrappedOrderPayloadDto {
  payload: OrderPayloadDto;
}

export class EnrichOrderResponseDto {
  @ApiProperty({ example: 'Order enriched' })
  message: string;
  /** Internal id of the stored order; null on a dry run */
  @ApiProperty({ format: 'uuid' })
  orderDbId: string | null;
  @ApiProperty({ example: 'ORD-2026-000123' })
  orderId: string;
  @ApiProperty({ example: ENRICHED_ORDER_EXAMPLE })
  payload: EnrichedOrderPayloadDto;

  /** With `?nfe=65|55`: the order's invoice items (`det` and `total`), computed from this enrichment, as `GET /api/orders/{orderId}/nfe` answers them */
  nfe?: NfeItemsDto;

  /** With `?nfe=`, instead of `nfe` when the order cannot be printed: one entry per cause (the item's path, the problem, the code), as the details of 422 NFE_NOT_ISSUABLE */
  nfeProblems?: NfeProblemDto[];
}

export { ORDER_EXAMPLE, ORDER_WITH_ADJUSTMENTS_EXAMPLE };
