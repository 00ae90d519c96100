import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { TAX_WARNING_CODES } from '../../tax-engine/tax-engine.js';
import { OpenObject } from '../../common/openapi/open-object.decorator.js';
import { ENRICHED_ORDER_EXAMPLE, ORDER_EXAMPLE } from '../../demo/order-examples.js';

export class EnrichQueryDto {
  @ApiPropertyOptional({ description: 'Compute and return the enrichment without storing anything (`orderDbId` is null)', default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'must be true or false' })
  dryRun?: boolean;
}

@OpenObject()
export class PriceAmountDto {
  @ApiProperty({ description: 'Line amount (quantity included), the tax base', example: 25.9 })
  total: number;
}

@OpenObject()
export class PriceDto {
  @ApiProperty({ type: PriceAmountDto })
  totalPrice: PriceAmountDto;
}

export class LineTaxDto {
  @ApiProperty({ description: "The product's own 8-digit NCM, as it goes on the invoice", example: '21069090' })
  NCM: string;
  @ApiProperty({ example: '' })
  CEST: string;
  @ApiProperty({ nullable: true, type: String, example: '5102' })
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
  @ApiProperty({ description: 'The line amount', example: 25.9 })
  ICMS_base: number;
  @ApiProperty({ description: 'round(ICMS_base × ICMS_rate / 100, 2), half-up; 0 for a zero CST', example: 4.66 })
  ICMS_value: number;
  @ApiProperty({ description: 'Line amount minus ICMS_value (or the line amount when the group keeps ICMS in the base)', example: 21.24 })
  PIS_base: number;
  @ApiProperty({ example: 0.14 })
  PIS_value: number;
  @ApiProperty({ example: 21.24 })
  COFINS_base: number;
  @ApiProperty({ example: 0.64 })
  COFINS_value: number;
  @ApiProperty({ description: 'ICMS_value + PIS_value + COFINS_value', example: 5.44 })
  total_tax: number;
  @ApiProperty({ enum: ['productId', 'externalProductId'], description: 'Which category field matched the product', example: 'productId' })
  matchedBy: string;
  @ApiProperty({ description: 'The matrix key whose rule was applied (a prefix of NCM on a fallback match)', example: '21069090' })
  matchedKey: string;
  @ApiProperty({
    description: 'Why a tax is zero although its rate is not',
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { ICMS: 'CST_60', PIS: 'CST_04', COFINS: 'CST_04' },
  })
  zeroReasons: Record<string, string>;
  @ApiPropertyOptional({ description: 'Tax reform (informative)', example: '000' })
  CST_IBSCBS?: string;
  @ApiPropertyOptional({ example: '000001' })
  cClassTrib?: string;
  @ApiPropertyOptional({ description: 'Line amount − ICMS − PIS − COFINS', example: 74.42 })
  IBSCBS_base?: number;
  @ApiPropertyOptional({ example: 0.9 })
  CBS_rate?: number;
  @ApiPropertyOptional({ description: 'Informative; not in total_tax', example: 0.67 })
  CBS_value?: number;
  @ApiPropertyOptional({ example: 0.1 })
  IBS_UF_rate?: number;
  @ApiPropertyOptional({ example: 0.07 })
  IBS_UF_value?: number;
  @ApiPropertyOptional({ example: 0 })
  IBS_Mun_rate?: number;
  @ApiPropertyOptional({ example: 0 })
  IBS_Mun_value?: number;
}

export class TaxWarningDto {
  @ApiProperty({ enum: TAX_WARNING_CODES, example: 'PRODUCT_CATEGORY_NOT_FOUND' })
  code: string;
  @ApiProperty({ example: 'order.products[0].modifierGroups[0].selectedModifiers[1]' })
  path: string;
  @ApiProperty({ example: 'No product fiscal category for productId "no-onion"' })
  message: string;
}

export class TaxTotalsDto {
  @ApiProperty({ description: 'Sum of the taxed line amounts', example: 35.4 })
  base: number;
  @ApiProperty({ example: 4.91 })
  ICMS_value: number;
  @ApiProperty({ example: 0.16 })
  PIS_value: number;
  @ApiProperty({ example: 0.74 })
  COFINS_value: number;
  @ApiProperty({ description: 'Exactly the sum of the lines’ total_tax', example: 5.81 })
  total_tax: number;
  @ApiPropertyOptional({ description: 'Present when a rule carries IBS/CBS rates', example: 74.42 })
  IBSCBS_base?: number;
  @ApiPropertyOptional({ example: 0.67 })
  CBS_value?: number;
  @ApiPropertyOptional({ example: 0.07 })
  IBS_UF_value?: number;
  @ApiPropertyOptional({ example: 0 })
  IBS_Mun_value?: number;
}

export class TaxSummaryDto {
  @ApiProperty({ format: 'uuid' })
  fiscalGroupId: string;
  @ApiProperty({ nullable: true, type: String, example: 'ERP-SP-001' })
  externalId: string | null;
  @ApiProperty({ example: 'SP' })
  uf: string;
  @ApiProperty({ nullable: true, type: String, example: 'LUCRO_PRESUMIDO' })
  taxRegime: string | null;
  @ApiProperty({ type: TaxTotalsDto })
  totals: TaxTotalsDto;
  @ApiProperty({
    type: [TaxWarningDto],
    maxItems: 100,
    description: 'Lines that could not be taxed (they carry tax: null), never silent; at most the first 100 (see warningsTruncated)',
  })
  warnings: TaxWarningDto[];
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'How many more warnings there were beyond the 100 listed; absent when all are listed',
    example: 12,
  })
  warningsTruncated?: number;
  @ApiProperty({ example: '1.0.0' })
  engineVersion: string;
  @ApiProperty({ format: 'date-time' })
  calculatedAt: string;
}

@OpenObject()
export class SelectedModifierDto {
  @ApiProperty({ example: 'demo-extra-cheese' })
  productId: string;
  @ApiProperty({ type: PriceDto })
  price: PriceDto;
  @ApiPropertyOptional({ type: LineTaxDto, nullable: true, description: 'Added by enrichment; null when the modifier could not be taxed' })
  tax?: LineTaxDto | null;
}

@OpenObject()
export class ModifierGroupDto {
  @ApiProperty({ type: [SelectedModifierDto] })
  selectedModifiers: SelectedModifierDto[];
}

@OpenObject()
export class OrderLineDto {
  @ApiProperty({ description: 'Matched against product fiscal categories (productId, then externalProductId)', example: 'demo-burger' })
  productId: string;
  @ApiProperty({ type: PriceDto })
  price: PriceDto;
  @ApiPropertyOptional({ type: [ModifierGroupDto] })
  modifierGroups?: ModifierGroupDto[];
  @ApiPropertyOptional({ type: LineTaxDto, nullable: true, description: 'Added by enrichment; null when the line could not be taxed' })
  tax?: LineTaxDto | null;
}

@OpenObject()
export class OrderDetailsDto {
  @ApiProperty({ type: [OrderLineDto] })
  products: OrderLineDto[];
}

@OpenObject()
export class StoreOfOrderDto {
  @ApiProperty({ description: 'Finds the fiscal group', example: 'demo-store-1' })
  id: string;
}

/** The ordering platform's order. Only these fields are read; every other property is kept as is. */
@OpenObject()
export class OrderPayloadDto {
  @ApiProperty({
    description: 'Business identifier; the order is stored (upserted) by it',
    example: 'ORD-2026-000123',
    minLength: 1,
    maxLength: 100,
  })
  orderId: string;
  @ApiPropertyOptional({ example: 'ifood' })
  source?: string;
  @ApiProperty({ type: StoreOfOrderDto })
  store: StoreOfOrderDto;
  @ApiProperty({ type: OrderDetailsDto })
  order: OrderDetailsDto;
}

@OpenObject()
export class EnrichedOrderPayloadDto extends OrderPayloadDto {
  @ApiProperty({ type: TaxSummaryDto })
  taxSummary: TaxSummaryDto;
}

export class WrappedOrderPayloadDto {
  @ApiProperty({ type: OrderPayloadDto })
  payload: OrderPayloadDto;
}

export class EnrichOrderResponseDto {
  @ApiProperty({ example: 'Order enriched' })
  message: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Internal id of the stored order; null on a dry run' })
  orderDbId: string | null;
  @ApiProperty({ example: 'ORD-2026-000123' })
  orderId: string;
  @ApiProperty({ type: EnrichedOrderPayloadDto, example: ENRICHED_ORDER_EXAMPLE })
  payload: EnrichedOrderPayloadDto;
}

export { ORDER_EXAMPLE };
