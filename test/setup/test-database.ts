import pg from 'pg';

export const TEMPLATE_DATABASE = 'app_template';

/** The server started by the global setup (an embedded PostgreSQL, or TEST_DATABASE_URL's server). */
export function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is not set: run the tests through jest (global setup)');
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function createTestDatabase(prefix = 't'): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdminClient(async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${TEMPLATE_DATABASE}`);
        return;
      } catch (error) {
        // Two clones of one template at the same instant can collide; the template itself is never in use.
        if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((done) => setTimeout(done, 100 * attempt));
      }
    }
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
