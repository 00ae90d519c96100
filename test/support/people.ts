import type { Role } from '../../src/auth/principal.js';
import type { HttpClient, HttpResponse, RequestOptions } from './http.js';
import type { TestApp } from './test-app.js';

/** The development admin every non-production test app creates (the configuration's defaults). */
export const BOOTSTRAP_ADMIN = { email: 'admin@example.com', password: 'dev-admin-password' };
/** Passes the password rules: 12 characters or more, not in the common list. */
export const GOOD_PASSWORD = 'plum-kettle-orbit-42';

export interface SessionBody {
  user: { id: string; email: string; name: string; role: Role };
  csrfToken: string;
  idleExpiresAt: string;
  expiresAt: string;
}

/** A signed-in person: the cookie to send back and the session's CSRF token. */
export interface SignedIn {
  cookie: string;
  csrfToken: string;
  session: SessionBody;
}

/** `name=value` of the session cookie an answer sets, undefined when it sets none. */
export function sessionCookieOf(response: HttpResponse): string | undefined {
  const set = response.headers.getSetCookie().find((cookie) => /^(__Host-)?ots_session=[^;]+/.test(cookie));
  return set?.split(';')[0];
}

/** Request options sending the session's cookie, with its CSRF token unless `csrf` says otherwise. */
export function asPerson(person: Pick<SignedIn, 'cookie' | 'csrfToken'>, csrf: string | false = person.csrfToken): RequestOptions {
  return { headers: { cookie: person.cookie, ...(csrf === false ? {} : { 'x-csrf-token': csrf }) } };
}

export async function signIn(http: HttpClient, email: string, password: string, headers: Record<string, string> = {}): Promise<SignedIn> {
  const response = await http.post<SessionBody>('/auth/session', { email, password }, { headers });
  if (response.status !== 200) throw new Error(`sign-in of ${email} answered ${response.status}: ${response.text}`);
  const cookie = sessionCookieOf(response);
  if (!cookie) throw new Error('sign-in set no session cookie');
  return { cookie, csrfToken: response.body.csrfToken, session: response.body };
}

let people = 0;

/** Invites a new person with `role` as the admin client would, sets the password through the link, and answers the person's email. */
export async function personWith(
  t: TestApp,
  role: Role,
  password = GOOD_PASSWORD,
): Promise<{ id: string; email: string; password: string }> {
  const email = `person-${process.pid}-${++people}-${role}@example.com`;
  const token = await t.adminToken();
  const created = await t.http.post<{ user: { id: string }; link: string }>(
    '/admin/users',
    { email, name: `Person ${people}`, role },
    { token },
  );
  if (created.status !== 201) throw new Error(`inviting ${email} answered ${created.status}: ${created.text}`);
  const set = await t.http.post(`/auth/password-links/${linkToken(created.body.link)}`, { password });
  if (set.status !== 204) throw new Error(`setting the password of ${email} answered ${set.status}: ${set.text}`);
  return { id: created.body.user.id, email, password };
}

/** A new person with `role`, signed in. */
export async function signedInPerson(t: TestApp, role: Role): Promise<SignedIn & { id: string; email: string }> {
  const person = await personWith(t, role);
  return { ...(await signIn(t.http, person.email, person.password)), id: person.id, email: person.email };
}

/** The token of a one-time link (after `#`). */
export function linkToken(link: string): string {
  const token = link.split('#')[1];
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}
