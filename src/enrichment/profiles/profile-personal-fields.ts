import { Inject, Injectable } from '@nestjs/common';
import type { IntakeShapePersonalFields } from '../../personal-data/intake-shape-personal-fields.port.js';
import type { PersonalDataFieldList } from '../../personal-data/personal-data-fields.js';
import { MARKETPLACE_PROFILES, type MarketplaceProfile } from './marketplace-profile.js';

/** Each registered profile's `personalDataFields`, as the personal-data module's port reads them (shape: the `?profile=` name). */
@Injectable()
export class ProfilePersonalFields implements IntakeShapePersonalFields {
  readonly lists: readonly PersonalDataFieldList[];

  constructor(@Inject(MARKETPLACE_PROFILES) profiles: readonly MarketplaceProfile[]) {
    this.lists = profiles.map((profile) => ({ shape: profile.name, fields: profile.personalDataFields }));
  }
}
