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

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
