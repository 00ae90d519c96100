import type { Schemas } from '../api/client';

/** A person's role, as the API's people routes type it. */
export type Role = Schemas['UserDto']['role'];

/** Every role, least first: the order `roleIncludes` reads. */
export const ROLES = ['support', 'fiscal', 'admin'] as const satisfies readonly Role[];
// Fails to compile when the API gains a role this list lacks.
const everyRole: Exclude<Role, (typeof ROLES)[number]> extends never ? true : never = true;
void everyRole;

/** True when `role` may do what `needed` may: each role includes the ones before it. */
export function roleIncludes(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/**
 * The least role each section of the console needs, as the API decides it: support reads orders
 * and the dashboard; fiscal adds the fiscal groups, product categories, the calculator, the status
 * aliases and the reports; admin adds people, clients, the store and channel configuration, the audit log and the personal-data requests. The navigation hides, and the routes refuse, the rest.
 */
export const SECTIONS = [
  { to: '/', key: 'nav.dashboard', end: true, role: 'support' },
  { to: '/orders', key: 'nav.orders', end: false, role: 'support' },
  { to: '/fiscal-groups', key: 'nav.fiscalGroups', end: false, role: 'fiscal' },
  { to: '/categories', key: 'nav.categories', end: false, role: 'fiscal' },
  { to: '/calculator', key: 'nav.calculator', end: false, role: 'fiscal' },
  { to: '/status-aliases', key: 'nav.statusAliases', end: false, role: 'fiscal' },
  { to: '/reports', key: 'nav.reports', end: false, role: 'fiscal' },
  { to: '/people', key: 'nav.people', end: false, role: 'admin' },
  { to: '/clients', key: 'nav.clients', end: false, role: 'admin' },
  { to: '/channels', key: 'nav.channels', end: false, role: 'admin' },
  { to: '/audit', key: 'nav.audit', end: false, role: 'admin' },
  { to: '/personal-data', key: 'nav.personalData', end: false, role: 'admin' },
  { to: '/sign-in-settings', key: 'nav.signInSettings', end: false, role: 'admin' },
] as const satisfies readonly { to: string; key: string; end: boolean; role: Role }[];

export function sectionsFor(role: Role) {
  return SECTIONS.filter((section) => roleIncludes(role, section.role));
}
