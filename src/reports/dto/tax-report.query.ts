import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, IsTimeZone, IsUUID, Length, Matches } from 'class-validator';

/** The zone of the period's days when none is given: the stores served are in Brazil, and stores carry no zone of their own. */
export const DEFAULT_REPORT_TIME_ZONE = 'America/Sao_Paulo';
/** A longer period is refused: a year is the longest an accountant files. */
export const MAX_REPORT_DAYS = 366;

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Query of `GET /api/admin/reports/tax` and its CSV and XLSX exports; unknown parameters are refused (400). */
export class TaxReportQuery {
  /** First day of the period (inclusive), a calendar day in `timeZone` */
  @ApiProperty({ format: 'date', example: '2026-11-01' })
  @Matches(DAY, { message: 'must be a day as YYYY-MM-DD' })
  from: string;

  /** Last day of the period (inclusive), a calendar day in `timeZone`; at most 366 days after `from` */
  @ApiProperty({ format: 'date', example: '2026-11-30' })
  @Matches(DAY, { message: 'must be a day as YYYY-MM-DD' })
  to: string;

  /** IANA time zone in which `from` and `to` are days; default America/Sao_Paulo (Brasília time) */
  @ApiProperty({ default: DEFAULT_REPORT_TIME_ZONE, example: 'America/Manaus' })
  @IsOptional()
  @IsString()
  @IsTimeZone()
  timeZone?: string;

  /** Only orders of this store (exact, case-sensitive) */
  @ApiProperty({ example: 'store-0042' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  storeId?: string;

  /** Only orders taxed by this fiscal group */
  @ApiProperty({ format: 'uuid', example: '3f0c2a5e-8d1b-4c8e-9f00-2b6f1d7a9c11' })
  @IsOptional()
  @IsUUID()
  fiscalGroupId?: string;

  /** Only orders taxed in this UF (`taxSummary.uf`) */
  @ApiProperty({ example: 'SP', pattern: '^[A-Z]{2}$' })
  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'must be two capital letters, e.g. SP' })
  uf?: string;
}
