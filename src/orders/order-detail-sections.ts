import { Injectable } from '@nestjs/common';
import type { OrderDetailDto, PersistedOrderDto } from './dto/persisted-order.dto.js';

/** The parts of the order detail that other modules keep (the orders module reads `history` and `fiscalRevision` itself). */
export type OrderDetailSectionKey = Exclude<keyof OrderDetailDto, keyof PersistedOrderDto | 'history' | 'fiscalRevision'>;

/**
 * One part of the order detail that another module keeps (tracking, transfers, dispatches,
 * deliveries...): its records of the order, oldest first, under `key` in the detail's JSON, typed
 * by OrderDetailDto. A module registers its sections from its own provider's `onModuleInit`, so a
 * new module adds its part of the detail without editing this one (docs/adding-a-module.md).
 */
export interface OrderDetailSection<K extends OrderDetailSectionKey = OrderDetailSectionKey> {
  key: K;
  read(orderDbId: string): Promise<OrderDetailDto[K]>;
}

export type OrderDetailSectionValues = Partial<Pick<OrderDetailDto, OrderDetailSectionKey>>;

@Injectable()
export class OrderDetailSections {
  private readonly sections = new Map<string, OrderDetailSection>();

  register<K extends OrderDetailSectionKey>(section: OrderDetailSection<K>): void {
    if (this.sections.has(section.key)) throw new Error(`The order detail section "${section.key}" is registered twice`);
    this.sections.set(section.key, section as unknown as OrderDetailSection);
  }

  /** Every registered section of the order, read in parallel, by key. */
  async read(orderDbId: string): Promise<OrderDetailSectionValues> {
    const entries = await Promise.all([...this.sections.values()].map(async (section) => [section.key, await section.read(orderDbId)]));
    return Object.fromEntries(entries) as OrderDetailSectionValues;
  }
}
