import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';
import type { Role } from '../auth/principal.js';

export interface LiveSessionRow {
  session_id: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  user_id: string;
  email: string;
  name: string;
  role: Role;
}

/**
 * The session of a cookie when it is open, within both timeouts, and its person active; moves its
 * idle timeout. One statement, read on every request (no cache): a sign-out, a deactivation or a
 * password change refuses the cookie from the next request on.
 */
export const TOUCH_LIVE_SESSION = sql<LiveSessionRow>(
  'user-session-touch-live',
  `UPDATE user_session AS s SET last_seen_at = statement_timestamp()
     FROM app_user AS u
    WHERE s.token_hash = $1 AND s.ended_at IS NULL AND u.id = s.user_id AND u.active
      AND s.last_seen_at > statement_timestamp() - make_interval(secs => $2::double precision)
      AND s.created_at > statement_timestamp() - make_interval(secs => $3::double precision)
   RETURNING s.id AS session_id, s.csrf_token, s.created_at, s.last_seen_at, u.id AS user_id, u.email, u.name, u.role`,
  { session_id: true, csrf_token: true, created_at: true, last_seen_at: true, user_id: true, email: true, name: true, role: true },
);

/** Whether a cookie's session (live or ended) belongs to a person who is no longer active: that person's access was removed. */
export const SESSION_OF_INACTIVE_PERSON = sql<{ user_id: string }>(
  'user-session-of-inactive-person',
  `SELECT s.user_id FROM user_session AS s JOIN app_user AS u ON u.id = s.user_id WHERE s.token_hash = $1 AND NOT u.active`,
  { user_id: true },
);

/** Ends a person's open sessions, but the one given (null: all of them). */
export const END_PERSON_SESSIONS = sql<{ id: string }>(
  'user-session-end-person',
  `UPDATE user_session SET ended_at = statement_timestamp()
    WHERE user_id = $1 AND ended_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)
   RETURNING id`,
  { id: true },
);

/** Ends the session of a cookie (sign-out, or a new sign-in over it). */
export const END_SESSION_BY_TOKEN = sql<{ id: string; user_id: string }>(
  'user-session-end-by-token',
  `UPDATE user_session SET ended_at = statement_timestamp() WHERE token_hash = $1 AND ended_at IS NULL RETURNING id, user_id`,
  { id: true, user_id: true },
);

/** Uses a link once: only an unused, unexpired link of an active person answers a row. */
export const USE_PASSWORD_LINK = sql<{ user_id: string; purpose: string }>(
  'password-link-use',
  `UPDATE password_link AS l SET used_at = statement_timestamp()
     FROM app_user AS u
    WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > statement_timestamp() AND u.id = l.user_id AND u.active
   RETURNING l.user_id, l.purpose`,
  { user_id: true, purpose: true },
);

/** A link that can still be used, with its person. */
export const FIND_USABLE_LINK = sql<{ email: string; name: string; expires_at: Date }>(
  'password-link-find-usable',
  `SELECT u.email, u.name, l.expires_at FROM password_link AS l JOIN app_user AS u ON u.id = l.user_id
    WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > statement_timestamp() AND u.active`,
  { email: true, name: true, expires_at: true },
);

/** The hand-written statements of the people's tables. */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: SqlRunner) {}

  async touchLiveSession(tokenHash: string, idleSeconds: number, maxSeconds: number): Promise<LiveSessionRow | undefined> {
    return this.db.row(TOUCH_LIVE_SESSION, [tokenHash, idleSeconds, maxSeconds]);
  }

  async isSessionOfInactivePerson(tokenHash: string): Promise<boolean> {
    return (await this.db.row(SESSION_OF_INACTIVE_PERSON, [tokenHash])) !== undefined;
  }

  async endPersonSessions(userId: string, except: string | null, manager?: EntityManager): Promise<string[]> {
    return (await this.db.rows(END_PERSON_SESSIONS, [userId, except], manager)).map((row) => row.id);
  }

  async endSessionByToken(tokenHash: string, manager?: EntityManager): Promise<{ id: string; userId: string } | undefined> {
    const row = await this.db.row(END_SESSION_BY_TOKEN, [tokenHash], manager);
    return row ? { id: row.id, userId: row.user_id } : undefined;
  }

  async usePasswordLink(tokenHash: string, manager: EntityManager): Promise<string | undefined> {
    return (await this.db.row(USE_PASSWORD_LINK, [tokenHash], manager))?.user_id;
  }

  async findUsableLink(tokenHash: string): Promise<{ email: string; name: string; expiresAt: Date } | undefined> {
    const row = await this.db.row(FIND_USABLE_LINK, [tokenHash]);
    return row ? { email: row.email, name: row.name, expiresAt: row.expires_at } : undefined;
  }
}
