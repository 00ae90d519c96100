import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'product_fiscal_category' })
@Check('ck_product_fiscal_category_ncm', "(ncm ~ '^[0-9]{8}$'::text)")
export class ProductFiscalCategoryEntity {
  /** The product's id on the ordering platform (`order.products[].productId`). */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  productId: string;

  @Column({ type: 'varchar', length: 300 })
  productName: string;

  @Column({ type: 'char', length: 8 })
  ncm: string;

  /** Matched when the order carries another system's product id; unique when set. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  @Index('uq_product_fiscal_category_external_product_id', { unique: true, where: '(external_product_id IS NOT NULL)' })
  externalProductId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
