import type { PersonalDataFieldList } from './personal-data-fields.js';

/**
 * The personal fields of each intake shape that another module knows: the marketplace profiles each declare theirs
 * (`personalDataFields`). The personal-data module owns this port and reads every list it answers for the keys
 * written with an order, the lookup, erasure and retention; the module that knows the profiles binds it (see "Ports"
 * in docs/adding-a-module.md). Its absence fails the start: an order of a marketplace would otherwise be stored with
 * fields no erasure knows.
 */
export interface IntakeShapePersonalFields {
  /** One list per shape (`rappi`, `99food`...), in the format of `PersonalDataFieldList`. */
  readonly lists: readonly PersonalDataFieldList[];
}

export const INTAKE_SHAPE_PERSONAL_FIELDS = Symbol('IntakeShapePersonalFields');
