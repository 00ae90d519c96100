import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { UpdateFiscalGroupDto } from '../../fiscal-groups/dto/fiscal-group.dto.js';

export const DEFAULT_IMPACT_HOURS = 24;
export const MAX_IMPACT_HOURS = 168;

/** A group body as an update takes it, and how far back to look. */
export class FiscalGroupImpactRequestDto extends UpdateFiscalGroupDto {
  /** The window: the orders received in the last `hours` hours (1 to 168, default 24) */
  @ApiProperty({ type: 'integer', example: 24 })
  @IsOptional()
  @Max(MAX_IMPACT_HOURS)
  @Min(1)
  @IsInt()
  hours?: number;
}

export class ImpactCountsDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 1250 })
  orders: number;

  /** Products and selected modifiers */
  @ApiProperty({ type: 'integer', minimum: 0, example: 18300 })
  lines: number;
}

/** Tax values in reais, named as on a line's `tax`; CBS_value, IBS_UF_value and IBS_Mun_value only where a rule carries them */
export class ImpactTaxValuesDto {
  @ApiProperty({ example: 3.11 })
  ICMS_value?: number;

  @ApiProperty({ example: 0.15 })
  PIS_value?: number;

  @ApiProperty({ example: 0.68 })
  COFINS_value?: number;

  @ApiProperty({ example: 0 })
  FCP_value?: number;

  @ApiProperty({ example: 3.94 })
  total_tax?: number;

  @ApiProperty({ example: 0.2 })
  CBS_value?: number;

  @ApiProperty({ example: 0.02 })
  IBS_UF_value?: number;

  @ApiProperty({ example: 0 })
  IBS_Mun_value?: number;
}

/*
 * `before` and `after` are described in place: a null beside a reference (`allOf`) is not a valid
 * example for OpenAPI 3.0 validators, a nullable object schema is.
 */
const NULLABLE_TAX_VALUES = {
  type: 'object',
  nullable: true,
  properties: Object.fromEntries(
    (['ICMS_value', 'PIS_value', 'COFINS_value', 'FCP_value', 'total_tax', 'CBS_value', 'IBS_UF_value', 'IBS_Mun_value'] as const).map(
      (name) => [name, { type: 'number' }],
    ),
  ),
} as const;

export class ImpactTaxTotalDto {
  /** The sum over the compared orders with the group as it is, in reais */
  @ApiProperty({ example: 4210.55 })
  before: number;

  /** The sum with the proposed group */
  @ApiProperty({ example: 4390.1 })
  after: number;

  /** after − before */
  @ApiProperty({ example: 179.55 })
  change: number;
}

/** Per tax, the sums of the orders' `taxSummary.totals`; the reform values only when a rule carries them */
export class ImpactTotalsDto {
  ICMS_value: ImpactTaxTotalDto;
  PIS_value: ImpactTaxTotalDto;
  COFINS_value: ImpactTaxTotalDto;
  FCP_value: ImpactTaxTotalDto;
  total_tax: ImpactTaxTotalDto;
  CBS_value?: ImpactTaxTotalDto;
  IBS_UF_value?: ImpactTaxTotalDto;
  IBS_Mun_value?: ImpactTaxTotalDto;
}

export class ImpactLineDto {
  /** The order's business id */
  @ApiProperty({ example: 'ORD-2026-000123' })
  orderId: string;

  /** The order's row id, for `GET /api/admin/orders/{id}` */
  @ApiProperty({ format: 'uuid', example: '3f0e7c1a-8b2d-4e5f-9a6b-7c8d9e0f1a2b' })
  orderDbId: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-25T18:42:10.000Z' })
  receivedAt: string;

  /** Where the line is in the order */
  @ApiProperty({ example: 'order.products[0]' })
  path: string;

  @ApiProperty({ example: 'product-burger' })
  productId: string | null;

  /** The product's (or modifier's) name as the order gives it; null when it has none */
  @ApiProperty({ example: 'Classic burger' })
  productName: string | null;

  /** The line's taxes with the group as it is; null when the line is not taxed */
  @ApiProperty(NULLABLE_TAX_VALUES as never)
  before: ImpactTaxValuesDto | null;

  /** With the proposed group; null when the line would not be taxed */
  @ApiProperty(NULLABLE_TAX_VALUES as never)
  after: ImpactTaxValuesDto | null;

  /** after − before per tax (an untaxed side counts as zero) */
  change: ImpactTaxValuesDto;
}

/** A warning as the order's `taxSummary.warnings` lists it */
export class ImpactWarningDto {
  @ApiProperty({ example: 'NCM_NOT_IN_MATRIX' })
  code: string;

  @ApiProperty({ example: 'order.products[0]' })
  path: string;

  @ApiProperty({ example: `NCM 21069090 of product "product-burger" has no rule in the fiscal group's matrix (nor a prefix of it)` })
  message: string;
}

export class ImpactLostLineDto extends ImpactLineDto {
  /** The warning the line would get instead of its taxes; null when the order has more warnings than its summary lists */
  warning: ImpactWarningDto | null;
}

export class ImpactLinesLosingTaxesDto {
  /** Orders with at least one such line */
  @ApiProperty({ type: 'integer', minimum: 0, example: 3 })
  orders: number;

  /** Every line taxed now and untaxed with the proposal */
  @ApiProperty({ type: 'integer', minimum: 0, example: 4 })
  lines: number;

  /** The first 100 of them, newest order first */
  listed: ImpactLostLineDto[];
}

export class FiscalGroupImpactDto {
  @ApiProperty({ format: 'uuid', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' })
  fiscalGroupId: string;

  @ApiProperty({ type: 'integer', example: 24 })
  hours: number;

  /** The window's start: orders received from then on are compared */
  @ApiProperty({ format: 'date-time', example: '2026-11-25T12:00:00.000Z' })
  receivedFrom: string;

  /** The window's end: when the preview was computed */
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' })
  receivedTo: string;

  /** At most this many orders are compared, the newest */
  @ApiProperty({ type: 'integer', example: 10000 })
  maxOrders: number;

  /** Whether the window holds more orders than `maxOrders` (the older ones were not compared) */
  @ApiProperty({ example: false })
  moreOrdersInWindow: boolean;

  /** The orders compared, and their lines */
  compared: ImpactCountsDto;

  /** The orders and lines whose taxes change (a line whose any tax value changes, or that gains or loses its taxes) */
  changed: ImpactCountsDto;

  totals: ImpactTotalsDto;

  linesLosingTaxes: ImpactLinesLosingTaxesDto;

  /** The 20 lines with the largest change of total_tax (then of all taxes together), largest first */
  largestChanges: ImpactLineDto[];
}
