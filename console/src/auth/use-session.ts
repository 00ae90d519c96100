import { useSyncExternalStore } from 'react';
import { session } from './session';

/** The current token (null when signed out), re-rendering on sign-in, sign-out and expiry. */
export function useSessionToken(): string | null {
  return useSyncExternalStore(session.subscribe, session.token);
}
