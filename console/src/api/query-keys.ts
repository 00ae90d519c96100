/**
 * Every TanStack Query key of the console, in one place. A page asks for a key here instead of
 * writing an array, and a mutation invalidates the same keys: a list's key starts with its
 * resource's `all` key, so invalidating `all` refreshes every page and filter of that list, and
 * `detail(id)` starts with it too, so one call covers both after a change. `lists` refreshes the
 * lists alone, for a mutation that has just put the changed detail into the cache itself.
 */
export const queryKeys = {
  orders: {
    all: ['orders'] as const,
    lists: ['orders', 'list'] as const,
    list: (query: Record<string, string>) => ['orders', 'list', query] as const,
    detail: (id: string) => ['orders', 'detail', id] as const,
    /** The order's invoice items in one model and freight choice; under `all`, so a change to the orders refreshes them. */
    nfe: (orderId: string, model: string, freightAs: string) => ['orders', 'nfe', orderId, model, freightAs] as const,
  },
  fiscalGroups: {
    all: ['fiscal-groups'] as const,
    lists: ['fiscal-groups', 'list'] as const,
    list: (query: { uf: string; storeId: string; page: number }) => ['fiscal-groups', 'list', query] as const,
    detail: (id: string) => ['fiscal-groups', 'detail', id] as const,
    /** Every page and revision of one group's revisions: invalidated by every write to the group. */
    revisions: (id: string) => ['fiscal-groups', 'revisions', id] as const,
    revisionPage: (id: string, page: number) => ['fiscal-groups', 'revisions', id, 'page', page] as const,
    revision: (id: string, revision: number) => ['fiscal-groups', 'revisions', id, 'revision', revision] as const,
  },
  categories: {
    all: ['product-fiscal-categories'] as const,
    history: (productId: string, page: number) => ['product-fiscal-categories', 'history', productId, page] as const,
  },
  signInOptions: ['sign-in-options'] as const,
  statusAliases: ['status-aliases'] as const,
  channels: ['channels-stores'] as const,
  users: {
    all: ['users'] as const,
    lists: ['users', 'list'] as const,
    list: (query: Record<string, string>) => ['users', 'list', query] as const,
  },
  clients: {
    all: ['clients'] as const,
    lists: ['clients', 'list'] as const,
    list: (query: Record<string, string>) => ['clients', 'list', query] as const,
    detail: (clientId: string) => ['clients', 'detail', clientId] as const,
  },
  reports: {
    all: ['reports'] as const,
    tax: (query: Record<string, string>) => ['reports', 'tax', query] as const,
  },
  auditEvents: {
    all: ['audit-events'] as const,
    list: (query: Record<string, string>) => ['audit-events', 'list', query] as const,
  },
  stats: {
    all: ['stats'] as const,
    ordersPerHour: (range: string) => ['stats', 'orders-per-hour', range] as const,
    forwarding: (range: string) => ['stats', 'forwarding', range] as const,
    storesMissingFiscalGroup: (range: string) => ['stats', 'stores-missing-fiscal-group', range] as const,
    orderIdsTaken: (range: string) => ['stats', 'order-ids-taken', range] as const,
  },
};
