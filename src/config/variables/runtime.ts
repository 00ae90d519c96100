import { boolean, integer, oneOf, postgresUrl } from '../config-parsers.js';
import type { VariableSpec } from '../config-types.js';

/** How the service runs: its environment, where it listens, its database. */
export const RUNTIME_VARIABLES: VariableSpec[] = [
  {
    name: 'NODE_ENV',
    key: 'nodeEnv',
    default: 'development',
    description: '`production` makes `JWT_SECRET`, `PERSONAL_DATA_KEY` and `DATABASE_URL` mandatory and disables the bootstrap client.',
    parse: oneOf(['development', 'production', 'test'] as const),
  },
  { name: 'PORT', key: 'port', default: '3000', description: 'HTTP listen port (0 picks a free one).', parse: integer(0, 65535) },
  {
    name: 'HOST',
    key: 'host',
    default: undefined,
    defaultLabel: '`127.0.0.1`; `0.0.0.0` in production',
    description:
      'HTTP listen address. Outside production only this machine can connect by default: a development start holds the well-known bootstrap client. Docker and compose set `0.0.0.0`.',
    parse: (raw) => raw.trim(),
  },
  {
    name: 'DATABASE_URL',
    key: 'databaseUrl',
    default: undefined,
    defaultLabel: 'unset',
    description: 'External PostgreSQL (14 or newer). Unset: the service starts its embedded PostgreSQL.',
    sensitive: true,
    parse: postgresUrl,
  },
  {
    name: 'DATABASE_POOL_SIZE',
    key: 'databasePoolSize',
    default: '20',
    description: 'Connections per service instance.',
    parse: integer(1, 500),
  },
  {
    name: 'EMBEDDED_DB_DIR',
    key: 'embeddedDbDir',
    default: './data/postgres',
    description: 'Data directory of the embedded PostgreSQL; kept across restarts.',
    parse: (raw) => raw.trim(),
  },
  {
    name: 'EMBEDDED_DB_PORT',
    key: 'embeddedDbPort',
    default: undefined,
    defaultLabel: 'a free port',
    description: 'Port of the embedded PostgreSQL.',
    parse: (raw) => (raw.trim() === '' ? undefined : integer(1, 65535)(raw)),
  },
  { name: 'DB_MIGRATE', key: 'dbMigrate', default: 'true', description: 'Run pending migrations at start.', parse: boolean },
];
