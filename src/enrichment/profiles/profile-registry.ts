import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { MARKETPLACE_PROFILES, type MarketplaceProfile } from './marketplace-profile.js';

/** The marketplace profiles bound in the enrichment module, by `?profile=` name. */
@Injectable()
export class ProfileRegistry {
  private readonly byName: ReadonlyMap<string, MarketplaceProfile>;

  constructor(@Inject(MARKETPLACE_PROFILES) profiles: readonly MarketplaceProfile[]) {
    this.byName = new Map(profiles.map((profile) => [profile.name, profile]));
  }

  /** The profile named, or undefined for the service's own shape (`standard` or none); a 400 listing the known ones otherwise. */
  find(name: string | undefined): MarketplaceProfile | undefined {
    if (name === undefined || name === 'standard') return undefined;
    const profile = this.byName.get(name);
    if (profile === undefined)
      throw ApiError.badRequest(`Unknown profile "${name.slice(0, 40)}": one of standard, ${this.names.join(', ')}`, 'profile');
    return profile;
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }
}
