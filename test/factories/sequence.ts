import { DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';

let last = 0;

/** A number unique within the test file, for default names and ids. */
export function nextNumber(): number {
  return ++last;
}

/** Factories take the DataSource, or the EntityManager of a transaction the test holds. */
export type Db = DataSource | EntityManager;

export function managerOf(db: Db): EntityManager {
  return db instanceof DataSource ? db.manager : db;
}

/**
 * Inserts a whole entity row. TypeORM's deep-partial insert type does not accept jsonb columns typed
 * `Record<string, unknown>`; the row is an entity built by `manager.create`, so the cast hides nothing.
 */
export async function insertRow<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, row: T): Promise<void> {
  await manager.insert(entity, row as QueryDeepPartialEntity<T>);
}
