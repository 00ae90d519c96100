export const SCOPES = ['admin', 'orders', 'platform'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** What a verified bearer token says about its caller; set on `request.user`. */
export interface AuthenticatedClient {
  clientId: string;
  scopes: Scope[];
  tokenId: string;
}
