/**
 * The signed-in API client's token, held for this tab only: sessionStorage is per tab and is
 * cleared when the tab closes; the token never goes in a URL. A 401 from the API expires it.
 */
const TOKEN_KEY = 'order-tax-console.token';
const CLIENT_KEY = 'order-tax-console.client';
const SCOPES_KEY = 'order-tax-console.scopes';

type Listener = () => void;
const listeners = new Set<Listener>();
let expired = false;

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
    return expired;
  },
  signIn(token: string, clientId: string, scopes: string[]): void {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(CLIENT_KEY, clientId);
    sessionStorage.setItem(SCOPES_KEY, scopes.join(' '));
    expired = false;
    notify();
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(CLIENT_KEY);
    sessionStorage.removeItem(SCOPES_KEY);
    expired = false;
    notify();
  },
  expire(): void {
    if (!sessionStorage.getItem(TOKEN_KEY)) return;
    sessionStorage.removeItem(TOKEN_KEY);
    expired = true;
    notify();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
