import 'i18next';
// A module of types only (checked by `npm run typecheck`, unlike a .d.ts under skipLibCheck); nothing imports it.
import type { namespaces } from './namespaces';

/**
 * The messages' types, given to i18next: `t('a.key')` is checked against the English messages of
 * its namespace, so a key that does not exist fails `npm run typecheck`.
 */
type Namespaces = typeof namespaces;
type English = { [N in keyof Namespaces]: Namespaces[N]['en'] };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: English;
  }
}

/** A message tree with every text widened to `string`: the keys alone. */
type Keys<T> = { [K in keyof T]: T[K] extends string ? string : Keys<T[K]> };
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

/** Every language has the same keys in every namespace (test/structure/console-messages.spec.ts names them). */
export type SameKeysInEveryLanguage = Assert<Same<Keys<English>, Keys<{ [N in keyof Namespaces]: Namespaces[N]['pt-BR'] }>>>;
