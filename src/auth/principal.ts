import type { Scope } from './scopes.js';

/** A person's one role; each includes what the one before it may do. */
export const ROLES = ['support', 'fiscal', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` may do what `needed` may. */
export function roleIncludes(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** A machine client, from a verified bearer token (its client re-read at most AUTH_CACHE_SECONDS before). */
export interface ClientPrincipal {
  kind: 'client';
  clientId: string;
  /** The client's name, for the audit log. */
  name: string;
  scopes: Scope[];
  /** The stores it may touch (the orders' `store.id`); `null`: every store. */
  stores: string[] | null;
  tokenId: string;
}

/** A person signed in to the console with a session cookie. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
}

/** Who made the request; set on `request.user` by the access guard. */
export type Principal = ClientPrincipal | UserPrincipal;

/** An admin: a person with the role `admin`, or a machine client with the scope `admin`. */
export function isAdmin(principal: Principal | undefined): boolean {
  if (principal === undefined) return false;
  return principal.kind === 'user' ? principal.role === 'admin' : principal.scopes.includes('admin');
}
