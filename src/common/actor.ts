/** Who writes an order: recorded with every status change and every stored attempt. */
export interface Actor {
  clientId: string | null;
  /** The route, e.g. `POST /api/enrich-order`. */
  via: string;
}
