import { useSyncExternalStore } from 'react';
import type { Role } from './roles';
import { roleIncludes } from './roles';
import { session, type SessionState } from './session';

/** The session's state, re-rendering on sign-in, sign-out, expiry and renewal. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.state);
}

/** Whether the signed-in person's role includes `needed` (false when signed out). */
export function useHasRole(needed: Role): boolean {
  const state = useSession();
  return state.status === 'signed-in' && roleIncludes(state.session.user.role, needed);
}
