import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';

/** The next number of the sequence, skipping any id taken by hand (the bootstrap client, for one); no row when it was taken. */
export const INSERT_NUMBERED = sql<{ client_id: string }>(
  'api-client-insert-numbered',
  `INSERT INTO api_client (client_id, name, secret_hash, scopes, stores)
   SELECT next.id::text, $1, $2, $3, $4 FROM (SELECT nextval('api_client_number_seq') AS id) AS next
   WHERE NOT EXISTS (SELECT 1 FROM api_client c WHERE c.client_id = next.id::text)
   RETURNING client_id`,
  { client_id: true },
);
export const INSERT_IF_NONE = sql<{ client_id: string }>(
  'api-client-insert-if-none',
  `INSERT INTO api_client (client_id, name, secret_hash, scopes)
   SELECT $1, $2, $3, $4
   WHERE NOT EXISTS (SELECT 1 FROM api_client)
   ON CONFLICT (client_id) DO NOTHING
   RETURNING client_id`,
  { client_id: true },
);

/** The two writes of `api_client` that TypeORM's repository cannot say in one statement (entity reads and updates use the repository). */
@Injectable()
export class ApiClientsRepository {
  constructor(private readonly db: SqlRunner) {}

  /** The id given to the new client, or undefined when the sequence's number was already taken (try again). */
  async insertNumbered(
    name: string,
    secretHash: string,
    scopes: string[],
    stores: string[],
    manager?: EntityManager,
  ): Promise<string | undefined> {
    return (await this.db.row(INSERT_NUMBERED, [name, secretHash, scopes, stores], manager))?.client_id;
  }

  /** Inserts the client only when no client exists at all; whether it did. */
  async insertIfNone(clientId: string, name: string, secretHash: string, scopes: string[]): Promise<boolean> {
    return (await this.db.rows(INSERT_IF_NONE, [clientId, name, secretHash, scopes])).length > 0;
  }
}
