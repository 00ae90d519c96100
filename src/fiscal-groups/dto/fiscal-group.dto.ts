import { ScheduledRevisionDto } from './scheduled-revision.dto.js';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { DELIVERY_FEE_ON_INVOICE, type DeliveryFeeOnInvoice } from '../../tax-engine/tax-rule.js';
import { UF_CODES } from '../uf.js';

export class StoreRefDto {
  /** Store id of the ordering platform (`payload.store.id` of orders) */
  @ApiProperty({ example: 'store-0042' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'must not be blank' })
  store_id: string;

  @ApiProperty({ example: 'Burger House Paulista' })
  @IsString()
  @Length(0, 200)
  store_name: string;
}

export class FiscalGroupSettingsDto {
  /** Keep ICMS inside the PIS/COFINS base (default false: ICMS is excluded, STF Tema 69) */
  @ApiProperty({ default: false, example: false })
  @IsOptional()
  @IsBoolean()
  includeIcmsInPisCofinsBase?: boolean;

  /** Default false. Split discounts paid by the platform or a third party to the lines like the store's own, lowering every base (when false: they stay off the invoice and are listed in `taxSummary.thirdPartyPayments`). An accountant turns it on only when the store's tax advice treats those discounts as unconditional discounts of the sale, printed on the invoice as vDesc. */
  @ApiProperty({ example: false })
  @IsOptional()
  @IsBoolean()
  platformDiscountsReduceBase?: boolean;

  /** When the order's delivery fee is split to the lines as freight (vFrete) and enters the bases: `WHEN_MERCHANT_DELIVERS` (default: only when `deliveredBy` is `MERCHANT`), `ALWAYS` or `NEVER`. An accountant changes it when the store bills delivery differently from who carries the order: `ALWAYS` when the store charges the fee although the platform delivers, `NEVER` when delivery is billed apart from the goods (on a service invoice, say). */
  @ApiProperty({ enum: DELIVERY_FEE_ON_INVOICE, example: 'WHEN_MERCHANT_DELIVERS' })
  @IsOptional()
  @IsIn(DELIVERY_FEE_ON_INVOICE, { message: `must be one of ${DELIVERY_FEE_ON_INVOICE.join(', ')}` })
  deliveryFeeOnInvoice?: DeliveryFeeOnInvoice;

  /** Default false. Split a service charge (taxa de serviço) of at most 10 % of the lines' total to the lines as other charges (vOutro), so that it enters the ICMS base (when false, Convênio ICMS 125/11 keeps it out). An accountant turns it on for a store in a state that did not adopt the Convênio. */
  @ApiProperty({ example: false })
  @IsOptional()
  @IsBoolean()
  serviceChargeInIcmsBase?: boolean;

  /** The CFOP (4 digits) of the invoice's items whose tax rule has none, e.g. 5102 (sale of goods bought from others) for a restaurant; absent: such an item makes the order's invoice items not issuable (NO_CFOP). The taxed lines' `tax.CFOP` carries it. */
  @ApiProperty({ example: '5102' })
  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'must be 4 digits' })
  defaultCfop?: string;
}

/**
 * The settings as a group answers them: every one, with its default when it was never set. (The request's
 * settings carry no OpenAPI `default` for the newer ones: the typed client would make a default required.)
 */
export class FiscalGroupSettingsResponseDto {
  /** See the request's settings; default false */
  @ApiProperty({ example: false })
  includeIcmsInPisCofinsBase: boolean;
  /** See the request's settings; default false */
  @ApiProperty({ example: false })
  platformDiscountsReduceBase: boolean;
  /** See the request's settings; default `WHEN_MERCHANT_DELIVERS` */
  @ApiProperty({ enum: DELIVERY_FEE_ON_INVOICE, example: 'WHEN_MERCHANT_DELIVERS' })
  deliveryFeeOnInvoice: DeliveryFeeOnInvoice;
  /** See the request's settings; default false */
  @ApiProperty({ example: false })
  serviceChargeInIcmsBase: boolean;
  /** See the request's settings; absent when not set */
  @ApiProperty({ example: '5102' })
  defaultCfop?: string;
}

/*
 * A TaxRule: each property reports its first problem only, and class-validator checks a
 * property's decorators from the bottom up (the type check comes last). `validateTaxRule`
 * (tax-rule-validation.ts) runs these rules on every rule of a matrix, JSON or CSV.
 */
const REQUIRED = { message: 'is required' };
export const RATE_RULE = 'must be a number from 0 to 100 with at most 4 decimals';
const RATE = { message: RATE_RULE };
const FCP_RATE = { message: 'must be a number from 0 to 4 with at most 4 decimals' };
const DIGITS = (rule: string) => ({ message: rule });

/** A finite JSON number written with at most 4 decimals (so that it is stored and returned exactly). */
function IsRateNumber(message = RATE) {
  return ValidateBy(
    {
      name: 'isRateNumber',
      validator: { validate: (value) => typeof value === 'number' && Number.isFinite(value) && /^-?\d+(\.\d{1,4})?$/.test(String(value)) },
    },
    message,
  );
}

export class TaxRuleDto {
  /** Same code as the matrix key */
  @ApiProperty({ example: '22021000' })
  @Matches(/^\d{2,8}$/, DIGITS('must be 2 to 8 digits equal to its matrix key'))
  @IsDefined(REQUIRED)
  NCM: string;

  /** 7 digits, or empty */
  @ApiProperty({ example: '0300700' })
  @Matches(/^(\d{7})?$/, DIGITS('must be 7 digits or empty'))
  @IsDefined(REQUIRED)
  CEST: string;

  /** 2-digit CST, or origin + CST (normal regime) / CSOSN (Simples Nacional) as 3 digits */
  @ApiProperty({ example: '00' })
  @Matches(/^\d{2,3}$/, DIGITS('must be 2 digits (CST) or 3 digits (origin + CST, or CSOSN)'))
  @IsDefined(REQUIRED)
  CST_ICMS: string;

  /** Percent, 0 to 100, at most 4 decimals */
  @ApiProperty({ example: 18 })
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  @IsDefined(REQUIRED)
  ICMS_rate: number;

  @ApiProperty({ example: '01' })
  @Matches(/^\d{2}$/, DIGITS('must be 2 digits'))
  @IsDefined(REQUIRED)
  CST_PIS: string;

  @ApiProperty({ example: 0.65 })
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  @IsDefined(REQUIRED)
  PIS_rate: number;

  @ApiProperty({ example: '01' })
  @Matches(/^\d{2}$/, DIGITS('must be 2 digits'))
  @IsDefined(REQUIRED)
  CST_COFINS: string;

  @ApiProperty({ example: 3 })
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  @IsDefined(REQUIRED)
  COFINS_rate: number;

  /** Present on some rules only */
  @ApiProperty({ example: '5102' })
  @IsOptional()
  @Matches(/^\d{4}$/, DIGITS('must be 4 digits'))
  CFOP?: string;

  /** Tax reform: CST of IBS/CBS */
  @ApiProperty({ example: '000' })
  @IsOptional()
  @Matches(/^\d{3}$/, DIGITS('must be 3 digits'))
  CST_IBSCBS?: string;

  /** Tax reform: tax classification code */
  @ApiProperty({ example: '000001' })
  @IsOptional()
  @Matches(/^\d{6}$/, DIGITS('must be 6 digits'))
  cClassTrib?: string;

  /** Tax reform: state IBS rate (informative) */
  @ApiProperty({ example: 0.1 })
  @IsOptional()
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  IBS_UF_rate?: number;

  /** Tax reform: municipal IBS rate (informative) */
  @ApiProperty({ example: 0 })
  @IsOptional()
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  IBS_Mun_rate?: number;

  /** Tax reform: CBS rate (informative) */
  @ApiProperty({ example: 0.9 })
  @IsOptional()
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  CBS_rate?: number;

  /** Reduced ICMS base (NF-e pRedBC): percent of the amount taken off the ICMS base, 0 to 100, at most 4 decimals; only with CST_ICMS 20 or 70 (2 digits, or origin + CST) or CSOSN 900 */
  @ApiProperty({ example: 33.33 })
  @IsOptional()
  @Max(100, RATE)
  @Min(0, RATE)
  @IsRateNumber()
  ICMS_base_reduction?: number;

  /** FCP (Fundo de Combate à Pobreza, NF-e pFCP): percent of the ICMS base, 0 to 4, at most 4 decimals, charged where ICMS is */
  @ApiProperty({ example: 2 })
  @IsOptional()
  @Max(4, FCP_RATE)
  @Min(0, FCP_RATE)
  @IsRateNumber(FCP_RATE)
  FCP_rate?: number;

  /** The goods' origin as the invoice prints it (NF-e `orig`, one digit from 0 to 8: 0 national, 1 and 2 foreign...); absent: the first digit of a 3-digit CST_ICMS in the normal regime, else 0 */
  @ApiProperty({ example: '0' })
  @IsOptional()
  @Matches(/^[0-8]$/, DIGITS('must be one digit from 0 to 8'))
  orig?: string;
}

export const TAX_MATRIX_EXAMPLE = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  '22021000': {
    NCM: '22021000',
    CEST: '0300700',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '04',
    PIS_rate: 0.65,
    CST_COFINS: '04',
    COFINS_rate: 3,
    CFOP: '5405',
  },
  '1905': { NCM: '1905', CEST: '', CST_ICMS: '00', ICMS_rate: 18, CST_PIS: '01', PIS_rate: 0.65, CST_COFINS: '01', COFINS_rate: 3 },
};

export const TAX_MATRIX_SCHEMA = {
  type: 'object',
  description:
    'Map from NCM code (2 to 8 digits; 8 is the full code, shorter keys are chapter/heading fallbacks) to its TaxRule. May be empty.',
  additionalProperties: { $ref: '#/components/schemas/TaxRuleDto' },
  example: TAX_MATRIX_EXAMPLE,
} as const;

export class CreateFiscalGroupDto {
  /** Identifier from an external system; unique when given */
  @ApiProperty({ example: 'ERP-SP-001' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  externalId?: string;

  @ApiProperty({ example: 'Restaurants SP - Lucro Presumido' })
  @IsString()
  @Length(1, 200)
  name: string;

  /** State code (one of the 27 Brazilian UFs; case-insensitive) */
  @ApiProperty({ enum: UF_CODES, example: 'SP' })
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value))
  @IsIn(UF_CODES, { message: 'must be one of the 27 Brazilian state codes (SP, RJ, MG, ...)' })
  uf: string;

  /** Tax regime. `SIMPLES_NACIONAL`, `MEI`, `1` and `4` (any case) are Simples Nacional; anything else is the normal regime. */
  @ApiProperty({ example: 'LUCRO_PRESUMIDO' })
  @IsOptional()
  @IsString()
  @Length(1, 50)
  taxRegime?: string;

  /** Stores whose orders this group taxes; a store belongs to at most one group */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5000)
  @ValidateNested({ each: true })
  @Type(() => StoreRefDto)
  stores: StoreRefDto[];

  @ApiProperty(TAX_MATRIX_SCHEMA as never)
  @IsObject()
  taxMatrix: Record<string, TaxRuleDto>;

  @IsOptional()
  @ValidateNested()
  @Type(() => FiscalGroupSettingsDto)
  settings?: FiscalGroupSettingsDto;
}

/**
 * Partial update: only sent properties change; `stores` and `taxMatrix`, when sent, replace the whole list / matrix.
 * A property the group cannot be without is refused as null; null clears `externalId` and `taxRegime` (which keep their
 * `@IsOptional()`) and leaves `settings` as they are.
 */
export class UpdateFiscalGroupDto extends PartialType(CreateFiscalGroupDto, { skipNullProperties: false }) {}

export class FiscalGroupResponseDto {
  @ApiProperty({ format: 'uuid', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' })
  id: string;

  @ApiProperty({ example: 'ERP-SP-001' })
  externalId: string | null;

  @ApiProperty({ example: 'Restaurants SP - Lucro Presumido' })
  name: string;

  @ApiProperty({ enum: UF_CODES, example: 'SP' })
  uf: string;

  @ApiProperty({ example: 'LUCRO_PRESUMIDO' })
  taxRegime: string | null;

  stores: StoreRefDto[];

  @ApiProperty(TAX_MATRIX_SCHEMA as never)
  taxMatrix: Record<string, TaxRuleDto>;

  /** Every setting, with its default when it was never set */
  settings: FiscalGroupSettingsResponseDto;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' })
  updatedAt: string;

  /** The revision in force, whose content this is (null for a group written outside the service, without revisions) */
  @ApiProperty({ type: 'integer', minimum: 1, example: 3 })
  revision: number | null;

  /** Revisions written for a later instant, soonest first; each replaces the whole group (but its stores) when it takes effect */
  scheduled: ScheduledRevisionDto[];
}

export class FiscalGroupPageDto {
  items: FiscalGroupResponseDto[];

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  pageSize: number;

  /** ceil(total / pageSize); 0 when total is 0 */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  totalPages: number;
}
