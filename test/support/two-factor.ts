import { totpCodeAt } from '../../src/users/two-factor/totp.js';
import type { HttpClient, HttpResponse } from './http.js';
import { asPerson, sessionCookieOf, type SessionBody, type SignedIn } from './people.js';

export interface ChallengeBody {
  challenge: string;
  next: 'totp' | 'enrol';
  expiresAt: string;
}

export interface EnrolmentBody {
  secret: string;
  otpauthUri: string;
}

/** The code an authenticator app shows `stepsAhead` steps of 30 s from now: each TOTP step is taken once, so a test's next sign-in uses a later one. */
export function codeOf(secret: string, stepsAhead = 0): string {
  return totpCodeAt(secret, Date.now() + stepsAhead * 30_000);
}

/** The password step of a sign-in that must go on with a second step: its 202 challenge. */
export async function passwordStep(
  http: HttpClient,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<ChallengeBody> {
  const answer = await http.post<ChallengeBody>('/auth/session', { email, password }, { headers });
  if (answer.status !== 202) throw new Error(`the password step of ${email} answered ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** A signed-in person enrols from the account page (start, then a code of the new secret): the secret and the recovery codes. */
export async function enrol(http: HttpClient, person: SignedIn): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await http.post<EnrolmentBody>('/auth/two-factor/enrolment', {}, asPerson(person));
  if (started.status !== 200) throw new Error(`enrolment answered ${started.status}: ${started.text}`);
  const confirmed = await http.post<{ recoveryCodes: string[] }>(
    '/auth/two-factor/enrolment/confirm',
    { code: codeOf(started.body.secret) },
    asPerson(person),
  );
  if (confirmed.status !== 200) throw new Error(`confirming the enrolment answered ${confirmed.status}: ${confirmed.text}`);
  return { secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

/** The signed-in person of a second step's 200. */
export function signedInBy(answer: HttpResponse<SessionBody>): SignedIn {
  const cookie = sessionCookieOf(answer);
  if (answer.status !== 200 || !cookie) throw new Error(`the second step answered ${answer.status}: ${answer.text}`);
  return { cookie, csrfToken: answer.body.csrfToken, session: answer.body };
}
