import { ApiProperty } from '@nestjs/swagger';

/** The taxed items of the period with one store, fiscal group, UF, CFOP, CST/CSOSN and ICMS rate. */
export class TaxReportRowDto {
  @ApiProperty({ type: String, nullable: true, example: 'store-0042' })
  storeId: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: '3f0c2a5e-8d1b-4c8e-9f00-2b6f1d7a9c11' })
  fiscalGroupId: string | null;

  /** The fiscal group's name now (null when it was deleted since) */
  @ApiProperty({ type: String, nullable: true, example: 'Lanchonetes SP' })
  fiscalGroupName: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'SP' })
  uf: string | null;

  @ApiProperty({ type: String, nullable: true, example: '5102' })
  cfop: string | null;

  /** CST_ICMS of the items: a CST in the normal regime, a CSOSN in Simples Nacional */
  @ApiProperty({ type: String, nullable: true, example: '00' })
  cst: string | null;

  /** ICMS rate in percent */
  @ApiProperty({ type: Number, nullable: true, example: 18 })
  icmsRate: number | null;

  /** Orders with at least one such item */
  @ApiProperty({ type: 'integer', example: 2 })
  orders: number;

  /** Items (lines and selected modifiers) */
  @ApiProperty({ type: 'integer', example: 3 })
  items: number;

  @ApiProperty({ example: 77.7 })
  icmsBase: number;

  @ApiProperty({ example: 13.99 })
  icmsValue: number;

  @ApiProperty({ example: 0 })
  fcpValue: number;

  @ApiProperty({ example: 63.71 })
  pisBase: number;

  @ApiProperty({ example: 0.41 })
  pisValue: number;

  @ApiProperty({ example: 63.71 })
  cofinsBase: number;

  @ApiProperty({ example: 1.91 })
  cofinsValue: number;

  /** ICMS + FCP + PIS + COFINS */
  @ApiProperty({ example: 16.31 })
  totalTax: number;
}

/** The period's sums over every row. */
export class TaxReportTotalsDto {
  /** Orders covered (each once, whatever its number of rows) */
  @ApiProperty({ type: 'integer', example: 2 })
  orders: number;

  @ApiProperty({ type: 'integer', example: 3 })
  items: number;

  @ApiProperty({ example: 77.7 })
  icmsBase: number;

  @ApiProperty({ example: 13.99 })
  icmsValue: number;

  @ApiProperty({ example: 0 })
  fcpValue: number;

  @ApiProperty({ example: 63.71 })
  pisBase: number;

  @ApiProperty({ example: 0.41 })
  pisValue: number;

  @ApiProperty({ example: 63.71 })
  cofinsBase: number;

  @ApiProperty({ example: 1.91 })
  cofinsValue: number;

  @ApiProperty({ example: 16.31 })
  totalTax: number;
}

export class TaxReportDto {
  /** The period's first instant (inclusive), UTC */
  @ApiProperty({ format: 'date-time', example: '2026-11-01T03:00:00.000Z' })
  periodStart: string;

  /** The instant after the period's last day (exclusive), UTC */
  @ApiProperty({ format: 'date-time', example: '2026-12-01T03:00:00.000Z' })
  periodEnd: string;

  @ApiProperty({ example: 'America/Sao_Paulo' })
  timeZone: string;

  /** By store, fiscal group, UF, CFOP, CST/CSOSN and ICMS rate */
  @ApiProperty({ type: [TaxReportRowDto] })
  rows: TaxReportRowDto[];

  @ApiProperty({ type: TaxReportTotalsDto })
  totals: TaxReportTotalsDto;
}
