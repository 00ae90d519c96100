import { StatusAliasEntity } from '../../src/status-aliases/status-alias.entity.js';
import { matchKey } from '../../src/status-aliases/status-match.js';
import { managerOf, nextNumber, type Db } from './sequence.js';

/** A status alias row; its match key is derived from the label, as the service derives it. Default: `Alias <n>` means READY. */
export async function statusAlias(db: Db, overrides: Partial<Omit<StatusAliasEntity, 'matchKey'>> = {}): Promise<StatusAliasEntity> {
  const n = nextNumber();
  const manager = managerOf(db);
  const { label = `Alias ${n}`, status = 'READY' } = overrides;
  const alias = manager.create(StatusAliasEntity, { matchKey: matchKey(label), label, status });
  await manager.insert(StatusAliasEntity, alias);
  return alias;
}
