import type { ErrorBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import type { HttpResponse } from '../support/http.js';
import { GOOD_PASSWORD, personWith } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const WRONG = 'wrong-password-123';

/**
 * Sign-ins sent together, to two instances on one database, while the people table is held: every attempt let
 * through to its password check waits at its read of the person, still under way, so that each phase ends when
 * every attempt has been answered or is waiting there, and the counts are exact.
 */
describe('People: the failed sign-in limits hold for attempts sent together', () => {
  let a: TestApp;
  let b: TestApp;
  let addresses = 0;
  /** A client address of its own (TRUSTED_PROXIES trusts the test's own connection), so that failure counts do not mix. */
  const from = () => ({ 'x-forwarded-for': `192.0.2.${++addresses}` });
  const signIn = (t: TestApp, email: string, password: string, headers: Record<string, string>) =>
    t.http.post<ErrorBody>('/auth/session', { email, password }, { headers });
  const statuses = (answers: HttpResponse[]) => answers.map((answer) => answer.status);
  const countOf = (answers: HttpResponse[], status: number) => answers.filter((answer) => answer.status === status).length;

  beforeAll(async () => {
    // Room in each pool for the 20 attempts an address may have waiting, and for the refusals answered meanwhile.
    const env = { TRUSTED_PROXIES: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '100000', DATABASE_POOL_SIZE: '30' };
    a = await bootTestApp(env);
    b = await bootTestApp(env, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('checks 5 passwords of one account from one address when 30 guesses arrive together; the right one sent after them from there gets 429', async () => {
    const person = await personWith(a, 'support');
    const address = from();
    const hold = await holdPeople(a);
    let guesses: HttpResponse<ErrorBody>[];
    let right: HttpResponse<ErrorBody>;
    try {
      const sent = Array.from({ length: 30 }, (_, index) => hold.track(signIn(index % 2 ? a : b, person.email, WRONG, address)));
      await hold.settled();
      expect(await hold.waiting()).toBe(5);
      // The limit is taken by the 5 under way: the right password, from that address, is refused before its check.
      const rightAnswer = hold.track(signIn(b, person.email, GOOD_PASSWORD, address));
      await hold.settled();
      await hold.release();
      [guesses, right] = await Promise.all([Promise.all(sent), rightAnswer]);
    } finally {
      await hold.release();
    }

    expect({ checked: countOf(guesses, 401), refused: countOf(guesses, 429), right: right.status }).toEqual({
      checked: 5,
      refused: 25,
      right: 429,
    });
    expect(right.body).toEqual({ error: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-ins; retry in \d+ s$/) });
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(right.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
    // Refused from that address until the window ends, on both instances; from another address the person signs in.
    expect(
      statuses([await signIn(a, person.email, GOOD_PASSWORD, address), await signIn(b, person.email, GOOD_PASSWORD, address)]),
    ).toEqual([429, 429]);
    expect((await signIn(a, person.email, GOOD_PASSWORD, from())).status).toBe(200);
  });

  it('checks 20 sign-ins from one address when 40 arrive together; a right password sent after them gets 429', async () => {
    const person = await personWith(a, 'support');
    const address = from();
    const hold = await holdPeople(a);
    let guesses: HttpResponse<ErrorBody>[];
    let right: HttpResponse<ErrorBody>;
    try {
      const sent = Array.from({ length: 40 }, (_, index) =>
        hold.track(signIn(index % 2 ? a : b, `guess-${index}-${process.pid}@example.com`, WRONG, address)),
      );
      await hold.settled();
      expect(await hold.waiting()).toBe(20);
      const rightAnswer = hold.track(signIn(a, person.email, GOOD_PASSWORD, address));
      await hold.settled();
      await hold.release();
      [guesses, right] = await Promise.all([Promise.all(sent), rightAnswer]);
    } finally {
      await hold.release();
    }

    expect({ checked: countOf(guesses, 401), refused: countOf(guesses, 429), right: right.status }).toEqual({
      checked: 20,
      refused: 20,
      right: 429,
    });
    expect(right.body.error).toBe('RATE_LIMITED');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // The person is not locked out: from another address the same password signs in.
    expect((await signIn(b, person.email, GOOD_PASSWORD, from())).status).toBe(200);
  });

  it('counts a sign-in under way until it signs in; then it counts no more, and neither do the attempts it held off', async () => {
    const person = await personWith(a, 'support');
    const address = from();
    for (let failure = 0; failure < 4; failure++) expect((await signIn(a, person.email, WRONG, address)).status).toBe(401);

    const hold = await holdPeople(a);
    let held: HttpResponse<ErrorBody>[];
    let right: HttpResponse<ErrorBody>;
    try {
      const rightAnswer = hold.track(signIn(a, person.email, GOOD_PASSWORD, address));
      await hold.settled();
      expect(await hold.waiting()).toBe(1);
      // 4 failures and the sign-in under way: the account's 5 places at the address are taken.
      const others = [hold.track(signIn(b, person.email, WRONG, address)), hold.track(signIn(a, person.email, GOOD_PASSWORD, address))];
      await hold.settled();
      await hold.release();
      [held, right] = await Promise.all([Promise.all(others), rightAnswer]);
    } finally {
      await hold.release();
    }

    expect({ held: statuses(held), right: right.status }).toEqual({ held: [429, 429], right: 200 });
    // Still 4 failures: one more password is checked, and the 6th attempt is refused.
    expect(statuses([await signIn(b, person.email, WRONG, address), await signIn(a, person.email, GOOD_PASSWORD, address)])).toEqual([
      401, 429,
    ]);
  });
});

/**
 * Holds `app_user` in ACCESS EXCLUSIVE mode until `release()`: a sign-in's read of the person waits, so an attempt
 * let through the limit stays under way. Raw SQL: the test is about attempts under way in the database, and the
 * only way to tell that an attempt is waiting there is PostgreSQL's lock table.
 */
async function holdPeople(t: TestApp) {
  const holder = t.dataSource.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  await holder.query('LOCK TABLE app_user IN ACCESS EXCLUSIVE MODE');
  let sent = 0;
  let answered = 0;
  const waiting = async () =>
    (
      await t.dataSource.query<Array<{ waiting: number }>>(
        `SELECT count(*)::int AS waiting FROM pg_locks WHERE relation = 'app_user'::regclass AND NOT granted`,
      )
    )[0]!.waiting;
  return {
    waiting,
    /** Counts a request sent while the table is held, and its answer when it comes. */
    track<T>(request: Promise<T>): Promise<T> {
      sent++;
      return request.finally(() => answered++);
    },
    /** Until every request tracked has been answered or waits at the held table. */
    async settled(): Promise<void> {
      await eventually(async () => answered + (await waiting()) === sent, {
        what: 'every attempt answered or waiting for the people table',
      });
    },
    async release(): Promise<void> {
      if (holder.isReleased) return;
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    },
  };
}
