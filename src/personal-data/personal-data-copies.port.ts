import type { EntityManager } from 'typeorm';

/** The marker that replaces an erased personal value, in every copy the service keeps. */
export const PERSONAL_DATA_MARKER = '[erased]';

/** How a copy of an order that another module keeps is erased: its text, and its JSON documents. */
export interface PersonalDataScrubber {
  /** Text (a receiver's answer, an error) with each of the order's personal values replaced by the marker. */
  text(text: string): string;
  /** A JSON document (a queued body) with its personal fields replaced by the marker. */
  document(document: unknown): unknown;
}

/**
 * A module that keeps copies of an order's documents (the webhook delivery log, its retry queue) erases the person's
 * data from them in the erasure's transaction, and answers how many of its rows changed. The personal-data module owns
 * this port; the owner of the copies binds it (see "Ports" in docs/adding-a-module.md).
 */
export interface PersonalDataCopies {
  eraseIn(manager: EntityManager, orderDbId: string, scrub: PersonalDataScrubber): Promise<number>;
  /** `eraseIn` for several orders, each with its own scrubber, reading their copies together; rows changed per order. */
  eraseInOrders(
    manager: EntityManager,
    orders: ReadonlyArray<{ orderDbId: string; scrub: PersonalDataScrubber }>,
  ): Promise<Map<string, number>>;
}

export const PERSONAL_DATA_COPIES = Symbol('PersonalDataCopies');
