import { createTestDatabase } from '../setup/test-database.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { GOOD_PASSWORD, linkToken, signIn } from '../support/people.js';
import { codeOf, enrol, passwordStep } from '../support/two-factor.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';

/**
 * A one-time password link's token once appeared in the request log at the default level
 * (`"url":"/api/auth/password-links/<token>"`): whoever read the log could set an invited admin's
 * password. The whole log of a running service, at its most verbose level, must hold no such secret.
 */
describe('secrets in URLs and the log (e2e)', () => {
  let database: { url: string; drop(): Promise<void> };
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = await startServiceProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'trace' }, 150_000);
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  it('logs no password-link token, sign-in callback code or query secret, at any level', async () => {
    const http = new HttpClient(service.baseUrl);
    const token = await developmentClientToken(http);
    const invited = await http.post<{ link: string }>(
      '/admin/users',
      { email: 'invited-admin@example.com', name: 'Invited admin', role: 'admin' },
      { token },
    );
    expect(invited.status).toBe(201);
    const link = linkToken(invited.body.link);

    expect((await http.get(`/auth/password-links/${link}`)).status).toBe(200);
    // A method the link does not take, and a refused password: answered (and logged) with the URL too.
    expect((await http.put(`/auth/password-links/${link}`, { password: GOOD_PASSWORD })).status).toBe(404);
    expect((await http.post(`/auth/password-links/${link}`, { password: 'short' })).status).toBe(400);
    expect((await http.post(`/auth/password-links/${link}`, { password: GOOD_PASSWORD })).status).toBe(204);
    expect((await http.get(`/auth/password-links/${link}`)).status).toBe(404);
    // A sign-in callback's authorization code and state, and secrets in any query.
    const code = 'callback-code-7c1e9a0b5d';
    const state = 'callback-state-3f8a2c6e4b';
    expect((await http.get(`/auth/oidc/callback?code=${code}&state=${state}`)).status).toBe(404);
    const querySecret = 'query-secret-9d2b7e1f0a';
    expect((await http.get(`/admin/users?access_token=${querySecret}&client_secret=${querySecret}`, { token })).status).toBe(400);

    // Two-factor sign-in: the TOTP secret, its codes, the recovery codes and the sign-in challenge.
    const person = await signIn(http, 'invited-admin@example.com', GOOD_PASSWORD);
    const { secret, recoveryCodes } = await enrol(http, person);
    const challenge = await passwordStep(http, 'invited-admin@example.com', GOOD_PASSWORD);
    expect((await http.post('/auth/session/two-factor', { challenge: challenge.challenge, recoveryCode: recoveryCodes[0] })).status).toBe(
      200,
    );
    const again = await passwordStep(http, 'invited-admin@example.com', GOOD_PASSWORD);
    const totpCode = codeOf(secret, 1);
    expect((await http.post('/auth/session/two-factor', { challenge: again.challenge, code: totpCode })).status).toBe(200);

    // Stopped: every line it wrote has been read.
    await service.stop();
    const log = service.logs.join('\n');
    expect(log).toContain('"url":"/api/auth/password-links/[redacted]"');
    expect(log).toContain('/api/auth/oidc/callback?code=[redacted]&state=[redacted]');
    for (const secret of [link, code, state, querySecret]) expect(log).not.toContain(secret);
    for (const twoFactorSecret of [secret, ...recoveryCodes, challenge.challenge, again.challenge])
      expect(log).not.toContain(twoFactorSecret);
    // A 6-digit code may appear by chance in a number of the log (a duration, a port): only as a JSON string value it would be the code.
    expect(log).not.toContain(`"${totpCode}"`);
  }, 60_000);
});

/**
 * With a mail server, the link travels in an e-mail: neither the link, its token, nor the mail server's
 * password may reach the log, whether the e-mail goes or fails.
 */
describe('secrets of e-mailed links in the log (e2e)', () => {
  const mailer = { user: 'mailer', pass: 'smtp-pass-in-url-4b8d1f' };
  let database: { url: string; drop(): Promise<void> };
  let inbox: SmtpInbox;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    inbox = await startSmtpInbox(mailer);
    service = await startServiceProcess(
      {
        DATABASE_URL: database.url,
        LOG_LEVEL: 'trace',
        SMTP_URL: inbox.url(mailer),
        SMTP_FROM: 'no-reply@example.com',
        SMTP_TIMEOUT_MS: '2000',
      },
      150_000,
    );
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await inbox?.close();
    await database?.drop();
  });

  it('logs neither the e-mailed link nor the mail server password, when the e-mail goes or fails', async () => {
    const http = new HttpClient(service.baseUrl);
    const token = await developmentClientToken(http);
    const invited = await http.post<{ user: { id: string }; emailSent: boolean }>(
      '/admin/users',
      { email: 'mailed-admin@example.com', name: 'Mailed admin', role: 'admin' },
      { token },
    );
    expect(invited.body.emailSent).toBe(true);
    const mailed = /set-password#([A-Za-z0-9_-]+)/.exec(inbox.messages[0]!.raw.replace(/=\r\n/g, ''))![1]!;
    expect((await http.post(`/auth/password-links/${mailed}`, { password: GOOD_PASSWORD })).status).toBe(204);
    // The mail server goes away: the next link is answered, and the failure is logged without it.
    await inbox.close();
    const failed = await http.post<{ link: string; emailSent: boolean; emailProblem: string }>(
      `/admin/users/${invited.body.user.id}/link`,
      {},
      { token },
    );
    expect(failed.body).toMatchObject({ emailSent: false, emailProblem: 'SMTP_UNREACHABLE' });
    const answered = linkToken(failed.body.link);

    await service.stop();
    const log = service.logs.join('\n');
    expect(log).toContain('an e-mail was not sent');
    expect(log).toContain('SMTP_UNREACHABLE');
    for (const secret of [mailed, answered, mailer.pass]) expect(log).not.toContain(secret);
  }, 60_000);
});
