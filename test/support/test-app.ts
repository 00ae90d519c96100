import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { ApiClientsService } from '../../src/auth/api-clients.service.js';
import { TokenService } from '../../src/auth/token.service.js';
import type { Scope } from '../../src/auth/scopes.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { createRootLogger } from '../../src/common/logging/logger.js';
import { createTestDatabase } from '../setup/test-database.js';
import { typedClient, type Api } from './api.js';
import { HttpClient } from './http.js';

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const BOOTSTRAP_ID = '1001';
export const BOOTSTRAP_SECRET = 'bootstrap-test-secret';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  /** The typed client (see api.ts), sending the admin token of `adminToken()`: every call whose request and answer the OpenAPI document describes. */
  api: Api;
  /** The typed client sending `token`, or no token. */
  apiAs(token?: string): Api;
  /** Raw HTTP, for what the typed client cannot send or read: malformed bodies, raw headers, non-JSON answers, undocumented routes. */
  http: HttpClient;
  baseUrl: string;
  databaseUrl: string;
  dataSource: DataSource;
  /** A token for a new client holding exactly these scopes. */
  tokenFor(scopes: Scope[]): Promise<string>;
  /** A token for a client holding every scope. */
  adminToken(): Promise<string>;
  createClient(scopes: Scope[], name?: string): Promise<{ clientId: string; clientSecret: string }>;
  close(): Promise<void>;
}

/**
 * Boots the whole application on a fresh database cloned from the migrated template, listening on 127.0.0.1.
 * With `databaseUrl`, boots another instance on that existing database instead (several service instances,
 * or a restart); closing it leaves the database in place. With `port`, listens there instead of on a free
 * port (an address known before the start, such as a redirect URI registered at an OpenID provider).
 */
export async function bootTestApp(
  env: Record<string, string> = {},
  options: { databaseUrl?: string; port?: number } = {},
): Promise<TestApp> {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: () => Promise.resolve() } : await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    BOOTSTRAP_CLIENT_ID: BOOTSTRAP_ID,
    BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET,
    DATABASE_POOL_SIZE: '10',
    WEBHOOK_RETRY_ENABLED: 'false',
    ...env,
    DATABASE_URL: database.url,
  });
  const logger = createRootLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const app = await createApp({ config, databaseUrl: database.url, logger });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}/api`;
  const clients = app.get(ApiClientsService);
  const tokens = app.get(TokenService);
  let adminToken: string | undefined;
  const origin = baseUrl.slice(0, -'/api'.length);

  const createClient = async (scopes: Scope[], name = 'test client') => {
    const created = await clients.create({ name, scopes });
    return { clientId: created.clientId, clientSecret: created.clientSecret };
  };
  const tokenFor = async (scopes: Scope[]) => {
    const { clientId } = await createClient(scopes);
    return (await tokens.issue(clientId, scopes)).accessToken;
  };

  const admin = async () => (adminToken ??= await tokenFor(['admin', 'orders', 'platform']));

  return {
    app,
    config,
    api: typedClient(origin, admin),
    apiAs: (token?: string) => typedClient(origin, token),
    http: new HttpClient(baseUrl),
    baseUrl,
    databaseUrl: database.url,
    dataSource: app.get(DataSource),
    tokenFor,
    adminToken: admin,
    createClient,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
