/**
 * The signed-in API client's token, held for this tab only: sessionStorage is per tab and is
 * cleared when the tab closes; the token never goes in a URL. A 401 from the API expires it.
 */
const TOKEN_KEY = 'order-tax-console.token';
const CLIENT_KEY = 'order-tax-console.client';

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
  /** True after the API refused the token (401), until the next sign-in. */
  expired(): boolean {
    return expired;
  },
  signIn(token: string, clientId: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(CLIENT_KEY, clientId);
    expired = false;
    notify();
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(CLIENT_KEY);
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
