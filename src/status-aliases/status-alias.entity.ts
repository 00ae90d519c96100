import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { OrderStatus } from '../orders/order-status.js';

/** A point-of-sale label and the order status it means (contract §7). */
@Entity({ name: 'status_alias' })
export class StatusAliasEntity {
  /** `matchKey(label)`: two labels that match the same way cannot both be aliases. */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  matchKey: string;

  @Column({ type: 'varchar', length: 100 })
  label: string;

  @Column({ type: 'varchar', length: 30 })
  status: OrderStatus;
}
