import type { MarketplaceProfile } from './marketplace-profile.js';
import { ProfileRegistry } from './profile-registry.js';

const profile = (name: string): MarketplaceProfile => ({
  name,
  label: name,
  description: '',
  map: () => ({ order: {}, sourcePaths: undefined as never }),
  example: {},
  personalDataFields: [],
});

describe('ProfileRegistry', () => {
  const registry = new ProfileRegistry([profile('ifood'), profile('other')]);

  it("finds a bound profile by name, and none for the service's own shape", () => {
    expect(registry.find('other')?.name).toBe('other');
    expect(registry.find(undefined)).toBeUndefined();
    expect(registry.find('standard')).toBeUndefined();
  });

  it('answers an unknown name with a 400 listing the known ones', () => {
    expect(() => registry.find('glovo')).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringContaining('standard, ifood, other') }),
    );
  });
});
