import { Inject, Injectable, Optional } from '@nestjs/common';
import type { OrderDetailDto, PersistedOrderDto } from './dto/persisted-order.dto.js';

/** The parts of the order detail that other modules keep (the orders module reads `history` and `fiscalRevision` itself). */
export type OrderDetailSectionKey = Exclude<keyof OrderDetailDto, keyof PersistedOrderDto | 'history' | 'fiscalRevision'>;

/**
 * One part of the order detail that another module keeps (tracking, transfers, dispatches,
 * deliveries...): its records of the order, oldest first, under `key` in the detail's JSON, typed
 * by OrderDetailDto.
 */
export interface OrderDetailSection<K extends OrderDetailSectionKey = OrderDetailSectionKey> {
  key: K;
  read(orderDbId: string): Promise<OrderDetailDto[K]>;
}

/** A typed section, for a list of sections of different keys. */
export function detailSection<K extends OrderDetailSectionKey>(section: OrderDetailSection<K>): OrderDetailSection {
  return section as unknown as OrderDetailSection;
}

/** A provider of another module that keeps sections of the order detail. */
export interface OrderDetailSectionSource {
  detailSections(): OrderDetailSection[];
}

/**
 * The port through which the orders module reads the sections other modules keep: every section, bound in
 * `OrderDetailSectionsModule` (`src/order-detail/`), which gathers them from the modules that keep them (this module
 * cannot import them: they import it). See "Ports" in docs/adding-a-module.md.
 */
export const ORDER_DETAIL_SECTIONS = Symbol('OrderDetailSections');

export type OrderDetailSectionValues = Partial<Pick<OrderDetailDto, OrderDetailSectionKey>>;

@Injectable()
export class OrderDetailSections {
  private readonly sections: readonly OrderDetailSection[];

  /** Without the binding (a context of the orders module alone), the detail has no section of another module. */
  constructor(@Optional() @Inject(ORDER_DETAIL_SECTIONS) sections: readonly OrderDetailSection[] | null) {
    this.sections = sections ?? [];
    const keys = this.sections.map((section) => section.key);
    const twice = keys.find((key, index) => keys.indexOf(key) !== index);
    if (twice) throw new Error(`The order detail section "${twice}" is bound twice`);
  }

  /** Every section of the order, read in parallel, by key. */
  async read(orderDbId: string): Promise<OrderDetailSectionValues> {
    const entries = await Promise.all(this.sections.map(async (section) => [section.key, await section.read(orderDbId)]));
    return Object.fromEntries(entries) as OrderDetailSectionValues;
  }
}
