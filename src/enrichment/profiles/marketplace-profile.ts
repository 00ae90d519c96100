import type { MappedDocument } from './mapped-document.js';

/**
 * One marketplace's way of writing an order (`?profile=<name>` on the enrichment routes). A profile is one
 * module under `src/enrichment/profiles/` or beside it: this object, its mapper, its OpenAPI example, its
 * personal-data fields and its tests. The enrichment reads a profile only through this interface, found in the
 * registry by name (docs/adding-a-marketplace.md).
 */
export interface MarketplaceProfile {
  /** The `?profile=` value. */
  readonly name: string;
  /** The marketplace's name as people read it (OpenAPI, console). */
  readonly label: string;
  /** How the profile reads the document, for the routes' OpenAPI description (one paragraph). */
  readonly description: string;
  /**
   * The service's order for the marketplace's document, with the document's path of each part. A document that
   * cannot be read as an order is a 400 naming paths of the document; a notice that is not an order, a 422
   * NOT_AN_ORDER; what the document says inconsistently is a warning (`intakeWarnings`).
   */
  map(document: unknown): MappedDocument;
  /** A complete document the OpenAPI document shows, on the demo store and products. */
  readonly example: Record<string, unknown>;
  /**
   * The personal data a document of this marketplace holds: dotted paths in the marketplace's document, `*`
   * standing for any array index or object key (`customer.phones.*.number`, `delivery.deliveryAddress.*`).
   */
  readonly personalDataFields: readonly string[];
}

/** The injection token of the registered profiles (an array), bound in the enrichment module. */
export const MARKETPLACE_PROFILES = Symbol('MARKETPLACE_PROFILES');
