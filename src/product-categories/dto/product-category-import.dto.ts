import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import {
  CATEGORY_CSV_COLUMNS,
  CATEGORY_IMPORT_PROBLEM_CODES,
  CATEGORY_IMPORT_WARNING_CODES,
  type CategoryImportOutcome,
  type CategoryImportProblemCode,
  type CategoryImportWarningCode,
} from '../product-categories-csv.js';

export class ProductCategoryImportQueryDto {
  /** Check the file and answer what it would change, row by row, without changing anything */
  @ApiProperty({ default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'must be true or false' })
  dryRun?: boolean;
}

/** A field a row changes. */
export class ProductCategoryFieldChangeDto {
  @ApiProperty({ enum: ['productName', 'ncm', 'externalProductId'], example: 'ncm' })
  field: 'productName' | 'ncm' | 'externalProductId';

  /** Null on a creation, or where there was no external id */
  @ApiProperty({ example: '22021000' })
  before: string | null;

  @ApiProperty({ example: '22029900' })
  after: string | null;
}

/** A problem of a row (it stops the row, and a real import) or a warning about it (it does not). */
export class ProductCategoryImportProblemDto {
  /** Machine-readable: the console translates it */
  @ApiProperty({ enum: [...CATEGORY_IMPORT_PROBLEM_CODES, ...CATEGORY_IMPORT_WARNING_CODES], example: 'NCM_LEADING_ZERO_DROPPED' })
  code: CategoryImportProblemCode | CategoryImportWarningCode;

  /** The column it is about; null for the row as a whole */
  @ApiProperty({ enum: CATEGORY_CSV_COLUMNS, example: 'ncm' })
  column: (typeof CATEGORY_CSV_COLUMNS)[number] | null;

  /** The same in English words */
  @ApiProperty({ example: '2013000 has 7 digits: a spreadsheet dropped its leading zero; write 02013000' })
  problem: string;

  /** `PRODUCT_ID_REPEATED`, `EXTERNAL_PRODUCT_ID_REPEATED`: the line of the row this one repeats */
  @ApiProperty({ type: 'integer', example: 3 })
  otherLine?: number;

  /** `EXTERNAL_PRODUCT_ID_IN_USE`: the product whose category keeps the external id */
  @ApiProperty({ example: 'prod-cola-350' })
  otherProductId?: string;

  /** `NCM_LEADING_ZERO_DROPPED`: the 8-digit NCM meant */
  @ApiProperty({ example: '02013000' })
  suggestion?: string;
}

export class ProductCategoryImportRowDto {
  /** The file's line the row starts on (1 is the header) */
  @ApiProperty({ type: 'integer', example: 2 })
  line: number;

  /** Null when the row has none */
  @ApiProperty({ example: 'prod-cola-350' })
  productId: string | null;

  @ApiProperty({ enum: ['created', 'changed', 'unchanged', 'error'], example: 'changed' })
  outcome: CategoryImportOutcome;

  /** What the row creates or changes, field by field; empty when unchanged or in error */
  changes: ProductCategoryFieldChangeDto[];

  /** Why the row cannot be imported; empty unless `error` */
  problems: ProductCategoryImportProblemDto[];

  /** What does not stop the row: an NCM the installed NCM table lacks, or whose validity ended */
  warnings: ProductCategoryImportProblemDto[];
}

export class ProductCategoryImportCountsDto {
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  created: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  changed: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 250 })
  unchanged: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  error: number;
}

export class ProductCategoryImportReportDto {
  /** True for `dryRun=true`: nothing was changed */
  dryRun: boolean;

  /** True when the changes were written (never on a dry run; a real import with an error row is a 400) */
  applied: boolean;

  /** How the file was read: UTF-8, or Windows-1252 for a file that is not UTF-8 */
  @ApiProperty({ enum: ['utf-8', 'windows-1252'], example: 'utf-8' })
  encoding: 'utf-8' | 'windows-1252';

  counts: ProductCategoryImportCountsDto;

  /** Every data row, in the file's order */
  rows: ProductCategoryImportRowDto[];
}
