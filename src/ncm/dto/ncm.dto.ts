import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/http/pagination.js';
import { NCM_STATUSES, type NcmStatus } from '../ncm-table.js';

export class NcmSearchQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description:
      'Digits (dots allowed) are a code prefix; words must each begin a word of the description or of its chapter and positions, accents and case ignored. Empty: every code.',
    example: 'refrigerante',
  })
  @IsOptional()
  @IsString()
  @Length(0, 200)
  q?: string;
}

/** The publication the loaded table is. */
export class NcmTableVersionDto {
  /** The publication's date line, as the official file states it */
  @ApiProperty({ example: 'Vigente em 05/07/2026' })
  updatedAt: string;

  /** The act the publication follows, as the official file states it */
  @ApiProperty({ example: 'Resolução Gecex nº 812/2025' })
  act: string;

  /** Where `npm run ncm:refresh` read it */
  @ApiProperty({ example: 'https://portalunico.siscomex.gov.br/classif/api/publico/nomenclatura/download/json' })
  sourceUrl: string;

  @ApiProperty({ format: 'date-time', example: '2026-12-07T12:00:00.000Z' })
  retrievedAt: string;

  /** Codes of 8 digits in the table */
  @ApiProperty({ type: 'integer', example: 10515 })
  codes: number;

  /** Set when the loaded file is a test fixture, never the official table: what it is */
  fixture: string | null;
}

export class NcmCodeDto {
  /** 8 digits */
  @ApiProperty({ example: '22021000' })
  code: string;

  /** The official description, without markup */
  @ApiProperty({
    example: 'Águas, incluindo as águas minerais e as águas gaseificadas, adicionadas de açúcar ou de outros edulcorantes ou aromatizadas',
  })
  description: string;

  /** The chapter, position and sub-positions it belongs to, outermost first */
  @ApiProperty({ example: ['Bebidas, líquidos alcoólicos e vinagres.', 'Águas, incluindo as águas minerais...'] })
  path: string[];

  @ApiProperty({ format: 'date', example: '2022-04-01' })
  validFrom: string;

  /** `9999-12-31` while it has no end */
  @ApiProperty({ format: 'date', example: '9999-12-31' })
  validTo: string;

  /** On today's date in Brazil */
  @ApiProperty({ enum: NCM_STATUSES.filter((status) => status !== 'unknown'), example: 'valid' })
  status: Exclude<NcmStatus, 'unknown'>;
}

export class NcmSearchPageDto {
  /** Null when no table is installed (then `items` is empty) */
  table: NcmTableVersionDto | null;

  /** Ordered by code */
  items: NcmCodeDto[];

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 20 })
  pageSize: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  totalPages: number;
}

export class NcmDescriptionsQueryDto {
  /** NCM codes of 8 digits, comma separated; at most 100 */
  @ApiProperty({ example: '22021000,22030000' })
  @IsString()
  @Matches(/^\d{8}(,\d{8}){0,99}$/, { message: 'must be at most 100 NCM codes of 8 digits, comma separated' })
  codes: string;
}

/** What the table says of an NCM code (a category's). */
export class NcmInfoDto {
  /**
   * `valid` on today's date in Brazil, `expired` (its validity ended), `not-yet-valid`, `unknown` (not in the table:
   * no such code of 8 digits), or `no-table` (no table is installed, nothing can be said)
   */
  @ApiProperty({ enum: [...NCM_STATUSES, 'no-table'], example: 'valid' })
  status: NcmStatus | 'no-table';

  /** Null unless the table has the code */
  @ApiProperty({
    example: 'Águas, incluindo as águas minerais e as águas gaseificadas, adicionadas de açúcar ou de outros edulcorantes ou aromatizadas',
  })
  description: string | null;

  /** Empty unless the table has the code */
  path: string[];

  @ApiProperty({ format: 'date', example: '9999-12-31' })
  validTo: string | null;
}

export class NcmDescribedCodeDto extends NcmInfoDto {
  @ApiProperty({ example: '22021000' })
  code: string;
}

export class NcmDescriptionsDto {
  /** Null when no table is installed (then every status is `no-table`) */
  table: NcmTableVersionDto | null;

  /** One per code asked, in the order asked */
  items: NcmDescribedCodeDto[];
}
