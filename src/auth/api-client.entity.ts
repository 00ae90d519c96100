import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'api_client' })
export class ApiClientEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The numeric string integrators send as `client_id`. */
  @Column({ type: 'varchar', length: 20, unique: true })
  clientId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'text' })
  secretHash: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
