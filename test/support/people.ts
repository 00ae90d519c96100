import type { TestApp } from './test-app.js';
import type { Person } from './console-browser.js';

export type Role = 'support' | 'fiscal' | 'admin';

let created = 0;

/**
 * A person with `role` and a password, made as an admin would: invited through the API (an admin
 * client may do what an admin person may), then the one-time link used to set the password.
 */
export async function createPerson(t: TestApp, role: Role, name = `${role} person`): Promise<Person & { id: string; link: string }> {
  const token = await t.adminToken();
  created += 1;
  const email = `${role}-${created}-${Date.now()}@example.com`;
  const invited = await t.http.post<{ user: { id: string }; link: string }>('/admin/users', { email, name, role }, { token });
  if (invited.status !== 201) throw new Error(`inviting ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  const password = `a long ${role} passphrase ${created}`;
  const linkToken = new URL(invited.body.link).hash.slice(1);
  const set = await t.http.post(`/auth/password-links/${encodeURIComponent(linkToken)}`, { password });
  if (set.status !== 204) throw new Error(`setting the password of ${email}: ${set.status} ${JSON.stringify(set.body)}`);
  return { id: invited.body.user.id, email, password, link: invited.body.link };
}

/** An invited person who has not set a password yet: the one-time link to open in the browser. */
export async function invitePerson(t: TestApp, role: Role, name: string): Promise<{ email: string; link: string }> {
  const token = await t.adminToken();
  created += 1;
  const email = `invited-${created}-${Date.now()}@example.com`;
  const invited = await t.http.post<{ link: string }>('/admin/users', { email, name, role }, { token });
  if (invited.status !== 201) throw new Error(`inviting ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  return { email, link: invited.body.link };
}
