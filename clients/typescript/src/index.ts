import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type OrderTaxClient = Client<paths>;

/**
 * A typed client of the Order Tax Enrichment and Fulfillment Service, generated from
 * its OpenAPI document (`npm run client:generate`). `baseUrl` is the service address
 * without `/api` (paths carry it), e.g. `http://127.0.0.1:3000`.
 */
export function createOrderTaxClient(baseUrl: string, accessToken?: string): OrderTaxClient {
  return createClient<paths>({ baseUrl, headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} });
}

/** Logs in with client credentials and returns a client that sends the bearer token. */
export async function loginClient(baseUrl: string, clientId: string, clientSecret: string): Promise<OrderTaxClient> {
  const anonymous = createOrderTaxClient(baseUrl);
  const { data, error } = await anonymous.POST('/api/authentication/login', {
    body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
  });
  if (!data) throw new Error(`login failed: ${JSON.stringify(error)}`);
  return createOrderTaxClient(baseUrl, data.accessToken);
}
