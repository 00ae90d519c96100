import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import type { OrderStatus } from '../orders/order-status.js';

/** A point-of-sale label and the order status it means. */
@Entity({ name: 'status_alias' })
@Check(
  'ck_status_alias_status',
  "((status)::text = ANY ((ARRAY['RECEIVED'::character varying, 'ENRICHED'::character varying, 'ENRICHMENT_FAILED'::character varying, " +
    "'FORWARDED'::character varying, 'FORWARD_FAILED'::character varying, 'ACCEPTED'::character varying, 'IN_PREPARATION'::character varying, " +
    "'READY'::character varying, 'DISPATCHED'::character varying, 'DELIVERED'::character varying, 'CANCELLED'::character varying, " +
    "'REJECTED'::character varying])::text[]))",
)
export class StatusAliasEntity {
  /** `matchKey(label)`: two labels that match the same way cannot both be aliases. */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  matchKey: string;

  @Column({ type: 'varchar', length: 100 })
  label: string;

  @Column({ type: 'varchar', length: 30 })
  status: OrderStatus;
}
