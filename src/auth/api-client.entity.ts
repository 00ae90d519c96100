import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'api_client' })
@Unique('uq_api_client_client_id', ['clientId'])
@Check('ck_api_client_client_id_numeric', "((client_id)::text ~ '^[0-9]+$'::text)")
export class ApiClientEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The numeric string integrators send as `client_id`. */
  @Column({ type: 'varchar', length: 20 })
  clientId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text' })
  secretHash: string;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  scopes: string[];

  /** The orders' `store.id` the client may touch; empty: every store. */
  @Column({ type: 'text', array: true, default: () => `'{}'` })
  stores: string[];

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** The secret replaced by a rotation, still accepted until `previousSecretValidUntil`. */
  @Column({ type: 'text', nullable: true })
  previousSecretHash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousSecretValidUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
