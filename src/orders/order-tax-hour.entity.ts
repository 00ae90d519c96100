import { Check, Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The tax report's sums of one UTC hour of order creation, per store, fiscal group, UF, CFOP, CST/CSOSN and ICMS rate,
 * in cents (migration OrderTaxHours). Written only by `fold_order_tax_hours()` (OrderTaxFolder), read by the report.
 */
@Entity({ name: 'order_tax_hour' })
@Index('ix_order_tax_hour_hour', ['hour'])
export class OrderTaxHourEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', primaryKeyConstraintName: 'pk_order_tax_hour' })
  id: string;

  @Column({ type: 'timestamptz' })
  hour: Date;

  @Column({ type: 'varchar', length: 100, nullable: true })
  storeId: string | null;

  @Column({ type: 'uuid', nullable: true })
  fiscalGroupId: string | null;

  /** `taxSummary.uf` of the orders. */
  @Column({ type: 'text', nullable: true })
  uf: string | null;

  @Column({ type: 'text', nullable: true })
  cfop: string | null;

  /** CST_ICMS: a CST in the normal regime, a CSOSN in Simples Nacional. */
  @Column({ type: 'text', nullable: true })
  cst: string | null;

  @Column({ type: 'numeric', nullable: true })
  icmsRate: string | null;

  /** Orders with items under this row's key. */
  @Column({ type: 'integer' })
  orders: number;

  /** Orders whose first key (by CFOP, CST, rate) is this row's: summed over rows, the number of distinct orders. */
  @Column({ type: 'integer' })
  firstOrders: number;

  @Column({ type: 'integer' })
  items: number;

  @Column({ type: 'bigint' })
  icmsBaseCents: string;

  @Column({ type: 'bigint' })
  icmsCents: string;

  @Column({ type: 'bigint' })
  fcpCents: string;

  @Column({ type: 'bigint' })
  pisBaseCents: string;

  @Column({ type: 'bigint' })
  pisCents: string;

  @Column({ type: 'bigint' })
  cofinsBaseCents: string;

  @Column({ type: 'bigint' })
  cofinsCents: string;

  @Column({ type: 'bigint' })
  totalTaxCents: string;
}

/** The tax fold's state, one row (migration OrderTaxHours): hours before `summarizedUntil` hold every change before `watermark`. */
@Entity({ name: 'order_tax_fold' })
@Check('ck_order_tax_fold_one', '(id = 1)')
export class OrderTaxFoldEntity {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'pk_order_tax_fold' })
  id: number;

  @Column({ type: 'timestamptz' })
  watermark: Date;

  @Column({ type: 'timestamptz', nullable: true })
  summarizedUntil: Date | null;
}
