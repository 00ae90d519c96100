import { Injectable } from '@nestjs/common';

/**
 * One part of the order detail that another module keeps (tracking, transfers, dispatches,
 * deliveries...): its records of the order, oldest first, under `key` in the detail's JSON.
 * A module registers its sections from its own provider's `onModuleInit`, so a new module adds
 * its part of the detail without editing this one (docs/adding-a-module.md).
 */
export interface OrderDetailSection {
  key: string;
  read(orderDbId: string): Promise<unknown[]>;
}

@Injectable()
export class OrderDetailSections {
  private readonly sections = new Map<string, OrderDetailSection>();

  register(section: OrderDetailSection): void {
    if (this.sections.has(section.key)) throw new Error(`The order detail section "${section.key}" is registered twice`);
    this.sections.set(section.key, section);
  }

  /** Every registered section of the order, read in parallel, by key. */
  async read(orderDbId: string): Promise<Record<string, unknown[]>> {
    const entries = await Promise.all([...this.sections.values()].map(async (section) => [section.key, await section.read(orderDbId)]));
    return Object.fromEntries(entries) as Record<string, unknown[]>;
  }
}
