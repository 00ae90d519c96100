import { boolean, integer, oneOf, trustedProxies } from '../config-parsers.js';
import type { VariableSpec } from '../config-types.js';

/** Limits on what a request may hold and take, logs, rate limits, proxies, metrics, demo data and shutdown. */
export const OPERATIONS_VARIABLES: VariableSpec[] = [
  {
    name: 'BODY_LIMIT_BYTES',
    key: 'bodyLimitBytes',
    default: '1048576',
    description: 'Largest accepted request body; larger ones get 413.',
    parse: integer(1024, 64 * 1024 * 1024),
  },
  {
    name: 'UNAUTHENTICATED_BODIES_MAX',
    key: 'unauthenticatedBodiesMax',
    default: '32',
    description:
      'Most request bodies one instance reads at once before any credential is checked (login, token, channel configuration, unknown routes); more get 503 with Retry-After.',
    parse: integer(1, 10_000),
  },
  {
    name: 'ORDER_MAX_LINES',
    key: 'orderMaxLines',
    default: '2000',
    description:
      'Most lines plus selected modifiers an order may have; a larger one is refused with 422 ORDER_TOO_LARGE before anything is computed or stored.',
    parse: integer(1, 100_000),
  },
  {
    name: 'IMPACT_PREVIEW_DEADLINE_MS',
    key: 'impactPreviewDeadlineMs',
    default: '15000',
    description:
      'How long an impact preview (`POST /api/admin/fiscal-groups/{id}/impact`) may run: past it the preview stops, its database statement included, and answers 503 `DEADLINE_EXCEEDED`.',
    parse: integer(1, 600_000),
  },
  {
    name: 'NCM_TABLE_FILE',
    key: 'ncmTableFile',
    default: './reference-data/ncm/ncm-table.json.gz',
    description:
      "The NCM table (Receita Federal's published nomenclature, compacted by `npm run ncm:refresh`), read once at start for NCM descriptions and search. Missing: NCMs are shown without descriptions and the search finds nothing.",
    parse: (raw) => raw.trim(),
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    key: 'requestTimeoutMs',
    default: '30000',
    description: 'A request whose headers and body have not all arrived within this time is dropped with 408.',
    parse: integer(100, 600_000),
  },
  {
    name: 'LOG_LEVEL',
    key: 'logLevel',
    default: 'info',
    description: 'pino log level.',
    parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  },
  {
    name: 'LOG_FORMAT',
    key: 'logFormat',
    default: undefined,
    defaultLabel: '`pretty` on a terminal, else `json`',
    description:
      '`json`: one JSON line per event (pino), for log collectors. `pretty`: readable lines (pino-pretty), for a person at a terminal. Unset: `pretty` when stdout is a terminal outside production, `json` otherwise. Production always writes `json` (`pretty` is refused there).',
    parse: oneOf(['json', 'pretty'] as const),
  },
  {
    name: 'AUTH_RATE_LIMIT_PER_MINUTE',
    key: 'authRateLimitPerMinute',
    default: '60',
    description: 'Requests a minute per IP and route on the credential routes (login, token, channel configuration).',
    parse: integer(1, 1_000_000),
  },
  {
    name: 'AUTH_CACHE_SECONDS',
    key: 'authCacheSeconds',
    default: '5',
    description:
      "How long an instance trusts what it read of a token's client (active flag, scopes, stores): a change to a client reaches every instance's requests within it, even for tokens issued before. 0 reads the client on every request.",
    parse: integer(0, 3600),
  },
  {
    name: 'TRUSTED_PROXIES',
    key: 'trustedProxies',
    default: '',
    defaultLabel: 'unset',
    description:
      "Addresses or CIDR ranges of the reverse proxies in front of the service (comma-separated). A request from one of them is counted under the client address its `X-Forwarded-For` names, for the credential rate limit; unset, every request counts under the address it comes from, so behind a proxy all clients share one limit. compose sets the proxy's address.",
    parse: trustedProxies,
  },
  { name: 'METRICS_ENABLED', key: 'metricsEnabled', default: 'true', description: 'Serve `/api/metrics`.', parse: boolean },
  {
    name: 'SEED_DEMO_DATA',
    key: 'seedDemoData',
    default: 'false',
    description: 'Load the demo fiscal group and product categories at start (idempotent).',
    parse: boolean,
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    key: 'shutdownTimeoutMs',
    default: '15000',
    description: 'How long a stopping instance waits for in-flight requests.',
    parse: integer(0, 300_000),
  },
];
