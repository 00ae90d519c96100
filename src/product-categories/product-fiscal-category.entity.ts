import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'product_fiscal_category' })
export class ProductFiscalCategoryEntity {
  /** The product's id on the ordering platform (`order.products[].productId`). */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  productId: string;

  @Column({ type: 'varchar', length: 300 })
  productName: string;

  @Column({ type: 'char', length: 8 })
  ncm: string;

  /** Matched when the order carries another system's product id. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  externalProductId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
