import type { Schemas } from '../api/schemas';

type SessionDto = Schemas['SessionDto'];

/**
 * The signed-in person, as the API last described the session. The session itself is the
 * HttpOnly cookie the service set, which no script can read; what is kept here is its CSRF token
 * (in memory only, read again from `GET /api/auth/session` after a reload) and, in the tab's
 * sessionStorage, the email last signed in with: not a secret, it fills in the sign-in form and
 * tells a reload after an expiry from a first visit.
 */
export type SessionState =
  /** Before `GET /api/auth/session` has answered. */
  | { status: 'checking' }
  | { status: 'signed-in'; session: SessionDto }
  /** `expired`: the API refused a session this tab had (401), until the next sign-in. */
  | { status: 'signed-out'; expired: boolean };

const EMAIL_KEY = 'order-tax-console.email';
// Kept in the tab's storage too, so that a reload after the expiry still says why sign-in is asked.
const EXPIRED_KEY = 'order-tax-console.expired';

/** Why the API refused a session this tab had: an expiry (or sign-out elsewhere), or the person deactivated (`ACCESS_REMOVED`). */
export type EndReason = 'expired' | 'access-removed';

type Listener = () => void;
const listeners = new Set<Listener>();
let state: SessionState = { status: 'checking' };

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  /** The same object until the next change (what `useSyncExternalStore` needs). */
  state(): SessionState {
    return state;
  },
  current(): SessionDto | null {
    return state.status === 'signed-in' ? state.session : null;
  },
  /** Sent as `x-csrf-token` on every state-changing request. */
  csrfToken(): string | null {
    return state.status === 'signed-in' ? state.session.csrfToken : null;
  },
  /** The email last signed in with in this tab, for the sign-in form. */
  lastEmail(): string | null {
    return sessionStorage.getItem(EMAIL_KEY);
  },
  /** Why the session ended, when it did: it expired, or an admin removed the person's access. */
  endReason(): EndReason | null {
    if (state.status !== 'signed-out' || !state.expired) return null;
    return sessionStorage.getItem(EXPIRED_KEY) === 'access-removed' ? 'access-removed' : 'expired';
  },
  expired(): boolean {
    return state.status === 'signed-out' && state.expired;
  },
  /** A new session (sign-in), or the same one renewed (a password change gives a new CSRF token). */
  signIn(dto: SessionDto): void {
    sessionStorage.setItem(EMAIL_KEY, dto.user.email);
    sessionStorage.removeItem(EXPIRED_KEY);
    set({ status: 'signed-in', session: dto });
  },
  signOut(): void {
    sessionStorage.removeItem(EMAIL_KEY);
    sessionStorage.removeItem(EXPIRED_KEY);
    set({ status: 'signed-out', expired: false });
  },
  /**
   * The API answered 401. A session this tab had (signed in, or remembered from before a reload)
   * has expired: sign-in says so. Without one, this is a first visit: plain sign-in.
   */
  expire(reason: EndReason = 'expired'): void {
    if (state.status === 'signed-out') return;
    const hadSession = state.status === 'signed-in' || sessionStorage.getItem(EMAIL_KEY) !== null;
    if (hadSession) sessionStorage.setItem(EXPIRED_KEY, reason);
    set({ status: 'signed-out', expired: hadSession || sessionStorage.getItem(EXPIRED_KEY) !== null });
  },
  /** `GET /api/auth/session` could not tell (the service unreachable): sign-in, saying nothing about an expiry. */
  unknown(): void {
    if (state.status === 'checking') set({ status: 'signed-out', expired: sessionStorage.getItem(EXPIRED_KEY) !== null });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Tests only: back to the state of a page just loaded. */
  reset(): void {
    set({ status: 'checking' });
  },
};
