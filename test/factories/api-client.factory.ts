import { ApiClientEntity } from '../../src/auth/api-client.entity.js';
import { SecretHasher } from '../../src/auth/secret-hasher.js';
import { managerOf, nextNumber, type Db } from './sequence.js';

const hasher = new SecretHasher();

export interface ApiClientOverrides extends Partial<Omit<ApiClientEntity, 'secretHash'>> {
  /** Stored as its scrypt hash, as the service stores secrets. */
  clientSecret?: string;
}

/**
 * An API client row. Defaults: id `7000<n>` (far from the id sequence, which starts at 1001),
 * scope orders, active, secret `secret-<n>`. The secret is returned beside the row.
 */
export async function apiClient(db: Db, overrides: ApiClientOverrides = {}): Promise<ApiClientEntity & { clientSecret: string }> {
  const n = nextNumber();
  const { clientSecret = `secret-${n}`, ...columns } = overrides;
  const manager = managerOf(db);
  const client = manager.create(ApiClientEntity, {
    clientId: `7000${n}`,
    name: `Client ${n}`,
    scopes: ['orders'],
    active: true,
    ...columns,
    secretHash: await hasher.hash(clientSecret),
  });
  await manager.insert(ApiClientEntity, client);
  return Object.assign(await manager.findOneByOrFail(ApiClientEntity, { clientId: client.clientId }), { clientSecret });
}
