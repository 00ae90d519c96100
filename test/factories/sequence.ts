import { DataSource, type EntityManager } from 'typeorm';

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
