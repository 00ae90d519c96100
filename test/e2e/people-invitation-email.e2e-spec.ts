import { asPerson, BOOTSTRAP_ADMIN, GOOD_PASSWORD, linkToken, signIn } from '../support/people.js';
import { closedPort, startSilentServer, startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const FROM = 'no-reply@order-tax.example.com';
const PUBLIC_BASE_URL = 'https://orders.example.com';
const MAILER = { user: 'mailer', pass: 'smtp-pass-5c2e9a' };

interface LinkAnswer {
  link: string | null;
  linkExpiresAt: string;
  emailSent: boolean;
  emailProblem: string | null;
}
type CreatedAnswer = LinkAnswer & { user: { id: string; email: string } };

/** The one-time link in a received e-mail's text. */
function linkIn(text: string): string {
  const links = text.match(/https:\/\/orders\.example\.com\/console\/set-password#[A-Za-z0-9_-]+/g) ?? [];
  // The same link in Portuguese and in English.
  expect(new Set(links).size).toBe(1);
  return links[0]!;
}

async function invite(t: TestApp, email: string): Promise<{ status: number; body: CreatedAnswer; ms: number }> {
  const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
  const started = Date.now();
  const response = await t.http.post<CreatedAnswer>('/admin/users', { email, name: 'Ana Souza', role: 'support' }, asPerson(admin));
  return { status: response.status, body: response.body, ms: Date.now() - started };
}

describe('People: invitation and reset e-mails through SMTP (e2e)', () => {
  describe('a mail server that needs a password', () => {
    let inbox: SmtpInbox;
    let t: TestApp;
    beforeAll(async () => {
      inbox = await startSmtpInbox(MAILER);
      t = await bootTestApp({ SMTP_URL: inbox.url(MAILER), SMTP_FROM: FROM, PUBLIC_BASE_URL, AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    });
    afterAll(async () => {
      await t?.close();
      await inbox?.close();
    });

    it('e-mails the invitation to the person, answers no link, and the e-mailed link sets the password', async () => {
      const email = `ana-${process.pid}@example.com`;
      const invited = await invite(t, email);
      expect(invited.status).toBe(201);
      expect(invited.body).toMatchObject({ emailSent: true, emailProblem: null, link: null, user: { email } });

      expect(inbox.messages).toHaveLength(1);
      const mail = inbox.messages[0]!;
      expect(mail.envelopeTo).toEqual([email]);
      expect(mail.envelopeFrom).toBe(FROM);
      expect(mail.headers.get('to')).toBe(email);
      expect(mail.headers.get('from')).toBe(FROM);
      expect(mail.headers.get('subject')).toBe('Convite para o console Order Tax / Invitation to the Order Tax console');
      // Both languages: the service does not know the person's.
      expect(mail.text).toContain('Olá, Ana Souza.');
      expect(mail.text).toContain('Você foi convidado(a)');
      expect(mail.text).toContain('You have been invited');
      const link = linkIn(mail.text);

      expect((await t.http.get(`/auth/password-links/${linkToken(link)}`)).status).toBe(200);
      expect((await t.http.post(`/auth/password-links/${linkToken(link)}`, { password: GOOD_PASSWORD })).status).toBe(204);
      const person = await signIn(t.http, email, GOOD_PASSWORD);
      expect(person.session.user.email).toBe(email);

      // The audit event says the link was e-mailed, and holds no link.
      const [event] = await t.dataSource.query<Array<{ changes: Record<string, { after: unknown }> }>>(
        `SELECT changes FROM audit_event WHERE action = 'issue-link' AND target_id = $1`,
        [invited.body.user.id],
      );
      expect(event!.changes).toEqual({
        purpose: { before: null, after: 'invitation' },
        emailSent: { before: null, after: true },
      });
      expect(JSON.stringify(event)).not.toContain(linkToken(link));
    });

    it('e-mails a reset link once the person has a password, and the old link no longer works', async () => {
      const email = `reset-${process.pid}@example.com`;
      const invited = await invite(t, email);
      const first = linkIn(inbox.messages.at(-1)!.text);
      expect((await t.http.post(`/auth/password-links/${linkToken(first)}`, { password: GOOD_PASSWORD })).status).toBe(204);

      const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
      const reset = await t.http.post<LinkAnswer>(`/admin/users/${invited.body.user.id}/link`, {}, asPerson(admin));
      expect(reset.status).toBe(201);
      expect(reset.body).toMatchObject({ emailSent: true, emailProblem: null, link: null });
      const mail = inbox.messages.at(-1)!;
      expect(mail.envelopeTo).toEqual([email]);
      expect(mail.headers.get('subject')).toBe('Nova senha no console Order Tax / New password for the Order Tax console');
      const second = linkIn(mail.text);
      expect(second).not.toBe(first);
      expect((await t.http.post(`/auth/password-links/${linkToken(second)}`, { password: 'second-plum-kettle-7' })).status).toBe(204);
      await signIn(t.http, email, 'second-plum-kettle-7');
    });
  });

  it('sends through a mail server without authentication', async () => {
    const inbox = await startSmtpInbox();
    const t = await bootTestApp({ SMTP_URL: inbox.url(), SMTP_FROM: `Order Tax <${FROM}>`, PUBLIC_BASE_URL });
    try {
      const email = `open-relay-${process.pid}@example.com`;
      const invited = await invite(t, email);
      expect(invited.body).toMatchObject({ emailSent: true, link: null });
      expect(inbox.messages.map((mail) => mail.envelopeTo)).toEqual([[email]]);
      expect(inbox.messages[0]!.headers.get('from')).toBe(`Order Tax <${FROM}>`);
      expect(
        (await t.http.post(`/auth/password-links/${linkToken(linkIn(inbox.messages[0]!.text))}`, { password: GOOD_PASSWORD })).status,
      ).toBe(204);
    } finally {
      await t.close();
      await inbox.close();
    }
  });

  describe('an e-mail that cannot be sent never loses the invitation', () => {
    it.each([
      [
        'a mail server that is down',
        'SMTP_UNREACHABLE',
        async () => ({ url: `smtp://127.0.0.1:${await closedPort()}`, close: async () => {} }),
      ],
      [
        'a mail server refusing the credentials',
        'SMTP_AUTH_FAILED',
        async () => {
          const inbox = await startSmtpInbox(MAILER);
          return { url: inbox.url({ user: MAILER.user, pass: 'wrong-pass' }), close: () => inbox.close() };
        },
      ],
      [
        'a mail server that never answers',
        'SMTP_TIMEOUT',
        async () => {
          const silent = await startSilentServer();
          return { url: `smtp://127.0.0.1:${silent.port}`, close: () => silent.close() };
        },
      ],
      [
        'a mail server that takes the message and never accepts it',
        'SMTP_TIMEOUT',
        async () => {
          const inbox = await startSmtpInbox(undefined, { neverAccept: true });
          return { url: inbox.url(), close: () => inbox.close() };
        },
      ],
    ])(
      '%s: the person and the link are created, the answer says %s and gives the link, in bounded time',
      async (_case, problem, server) => {
        const smtp = await server();
        const t = await bootTestApp({ SMTP_URL: smtp.url, SMTP_FROM: FROM, SMTP_TIMEOUT_MS: '1500', PUBLIC_BASE_URL });
        try {
          const email = `not-mailed-${process.pid}@example.com`;
          const invited = await invite(t, email);
          expect(invited.status).toBe(201);
          expect(invited.body).toMatchObject({ emailSent: false, emailProblem: problem, user: { email } });
          // SMTP_TIMEOUT_MS is 1.5 s: the request waits for it, not for the server.
          expect(invited.ms).toBeLessThan(6_000);
          expect((await t.http.post(`/auth/password-links/${linkToken(invited.body.link!)}`, { password: GOOD_PASSWORD })).status).toBe(
            204,
          );
          await signIn(t.http, email, GOOD_PASSWORD);
          const [event] = await t.dataSource.query<Array<{ changes: Record<string, { after: unknown }> }>>(
            `SELECT changes FROM audit_event WHERE action = 'issue-link' AND target_id = $1`,
            [invited.body.user.id],
          );
          expect(event!.changes).toMatchObject({ emailSent: { after: false }, emailProblem: { after: problem } });
        } finally {
          await t.close();
          await smtp.close();
        }
      },
      60_000,
    );
  });

  it('without SMTP_URL, answers the link to the admin as before', async () => {
    const t = await bootTestApp({ PUBLIC_BASE_URL });
    try {
      const invited = await invite(t, `no-mail-${process.pid}@example.com`);
      expect(invited.body).toMatchObject({ emailSent: false, emailProblem: 'SMTP_NOT_CONFIGURED' });
      expect(invited.body.link).toMatch(/^https:\/\/orders\.example\.com\/console\/set-password#/);
    } finally {
      await t.close();
    }
  });
});
