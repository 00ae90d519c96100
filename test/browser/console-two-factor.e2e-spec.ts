import type { Browser } from 'playwright-core';
import { ok } from '../support/api.js';
import { personWith, signedInPerson } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { describeWithBrowser, launchBrowser, openConsole, originOf, signIn, withoutExpected } from '../support/console-browser.js';
import { codeOf, enrol } from '../support/two-factor.js';

describeWithBrowser('console: two-factor sign-in (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('enrols from the account page with the QR code, signs out, and signs in again with a code of the app', async () => {
    const person = await personWith(t, 'support');
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/', person);
    await page.getByRole('button', { name: 'Account security' }).click();
    await page.getByRole('heading', { name: 'Account security' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-step verification' }).click();
    await page.getByRole('img', { name: 'QR code to add this console to an authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Authentication code').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Save your recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText(/Two-step verification is on since .*Recovery codes left: 10\./).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('input[name="password"]').waitFor();
    await page.locator('input[name="email"]').fill(person.email);
    await page.locator('input[name="password"]').fill(person.password);
    await page.locator('form button[type="submit"]').click();
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    // The enrolment's code was taken: the next step's code, as the app shows it 30 s later.
    await page.getByLabel('Authentication code').fill(codeOf(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.locator('nav').first().waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    expect(withoutExpected(errors, [])).toEqual([]);
    await context.close();
  }, 120_000);

  it('lets an admin see who signs in with a second factor, and reset it after confirming, in Portuguese', async () => {
    const person = await signedInPerson(t, 'fiscal');
    await enrol(t.http, person);
    const { page, errors, context } = await openConsole(browser, { locale: 'pt-BR' });
    await signIn(page, origin, '/console/people');
    const row = page.getByRole('row').filter({ hasText: person.email });
    await row.getByText('Verificação em duas etapas').waitFor();
    await row.getByRole('button', { name: /^Editar / }).click();
    const section = page.getByRole('dialog').getByRole('group', { name: 'Verificação em duas etapas' });
    await section.getByText('entra com um código de um app autenticador depois da senha').waitFor();
    await section.getByRole('button', { name: 'Redefinir a verificação em duas etapas' }).click();
    // Nothing happens before the confirmation.
    expect(ok(await t.api.GET('/api/admin/users/{id}', { params: { path: { id: person.id } } }), 200).twoFactorEnabled).toBe(true);
    await section.getByText(/^Redefinir a verificação em duas etapas de .*\? O autenticador/).waitFor();
    await section.getByRole('button', { name: 'Redefinir a verificação em duas etapas' }).click();
    await section.getByRole('status').filter({ hasText: 'foi redefinida' }).waitFor();
    await section.getByText('entra só com a senha.').waitFor();
    expect(ok(await t.api.GET('/api/admin/users/{id}', { params: { path: { id: person.id } } }), 200).twoFactorEnabled).toBe(false);
    await page.getByRole('dialog').getByRole('button', { name: 'Fechar' }).first().click();
    await row.getByText('Verificação em duas etapas').waitFor({ state: 'detached' });
    expect(withoutExpected(errors, [])).toEqual([]);
    await context.close();
  }, 120_000);

  it('says a wrong code in Portuguese, with no English from the server', async () => {
    const person = await personWith(t, 'support');
    const enrolled = await t.http.post<{ secret: string }>('/auth/session', { email: person.email, password: person.password });
    expect(enrolled.status).toBe(200);
    const cookie = enrolled.headers.getSetCookie()[0]!.split(';')[0]!;
    const headers = { cookie, 'x-csrf-token': (enrolled.body as unknown as { csrfToken: string }).csrfToken };
    const started = await t.http.post<{ secret: string }>('/auth/two-factor/enrolment', {}, { headers });
    expect((await t.http.post('/auth/two-factor/enrolment/confirm', { code: codeOf(started.body.secret) }, { headers })).status).toBe(200);

    const { page, context } = await openConsole(browser, { locale: 'pt-BR' });
    await page.goto(`${origin}/console/`);
    await page.locator('input[name="email"]').fill(person.email);
    await page.locator('input[name="password"]').fill(person.password);
    await page.locator('form button[type="submit"]').click();
    await page.getByRole('heading', { name: 'Verificação em duas etapas' }).waitFor();
    await page.getByLabel('Código de verificação').fill(codeOf(started.body.secret) === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verificar' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Não verificado: O código está errado, expirou ou já foi usado: digite o código que o aplicativo mostra agora, ou um código de recuperação.',
    );
    await context.close();
  }, 120_000);
});
