/**
 * The signed-in API client's token, held for this tab only: sessionStorage is per tab and is
 * cleared when the tab closes; the token never goes in a URL. A 401 from the API expires it.
 */
const TOKEN_KEY = 'order-tax-console.token';
const CLIENT_KEY = 'order-tax-console.client';
const SCOPES_KEY = 'order-tax-console.scopes';
// Kept in the tab's storage too, so that a reload after the expiry still says why sign-in is asked.
const EXPIRED_KEY = 'order-tax-console.expired';

type Listener = () => void;
const listeners = new Set<Listener>();
function notify(): void {
  for (const listener of listeners) listener();
}

export const session = {
  token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  clientId(): string | null {
    return sessionStorage.getItem(CLIENT_KEY);
  },
  /** The scopes the token was granted (e.g. the calculator also needs `orders`). */
  scopes(): string[] {
    return (sessionStorage.getItem(SCOPES_KEY) ?? '').split(' ').filter(Boolean);
  },
  /** True after the API refused the token (401), until the next sign-in. */
  expired(): boolean {
    return sessionStorage.getItem(EXPIRED_KEY) !== null;
  },
  signIn(token: string, clientId: string, scopes: string[]): void {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(CLIENT_KEY, clientId);
    sessionStorage.setItem(SCOPES_KEY, scopes.join(' '));
    sessionStorage.removeItem(EXPIRED_KEY);
    notify();
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(CLIENT_KEY);
    sessionStorage.removeItem(SCOPES_KEY);
    sessionStorage.removeItem(EXPIRED_KEY);
    notify();
  },
  expire(): void {
    if (!sessionStorage.getItem(TOKEN_KEY)) return;
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.setItem(EXPIRED_KEY, '1');
    notify();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
