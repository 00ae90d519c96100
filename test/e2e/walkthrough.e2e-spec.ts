import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { runWalkthrough } from '../../clients/typescript/examples/walkthrough.js';
import { PROJECT_ROOT } from '../support/service-process.js';
import { bootTestApp, BOOTSTRAP_ID, BOOTSTRAP_SECRET, type TestApp } from '../support/test-app.js';
import { forwardedPayload, WebhookReceiver } from '../support/webhook-receiver.js';

const execFileAsync = promisify(execFile);
const hasCurl = (() => {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The README's tour, as a shell script and through the typed client, against a booted service. */
describe('the README tour (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  (hasCurl ? it : it.skip)('runs scripts/walkthrough.sh as written in the README', async () => {
    const run = `sh${Date.now()}`;
    const { stdout } = await execFileAsync('bash', ['scripts/walkthrough.sh'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, BASE: t.baseUrl, CLIENT_ID: BOOTSTRAP_ID, CLIENT_SECRET: BOOTSTRAP_SECRET, RUN: run },
    });
    const before = receiver.requests.length;
    // Burger 25.90: ICMS 4.66 + PIS 0.14 + COFINS 0.64 = 5.44; cola CST 60/04: nothing.
    expect(stdout).toContain('4. burger tax: 5.44');
    expect(stdout).toContain('totals: {"base":38.9,"ICMS_value":4.66,"PIS_value":0.14,"COFINS_value":0.64,"total_tax":5.44}');
    expect(stdout).toContain(`5. listed: ORD-${run} ENRICHED`);
    expect(stdout).toMatch(/6\. forward: .*forwarded/);
    expect(stdout).toContain('7. status: ACCEPTED');
    expect(stdout).toContain('8. history: ENRICHED → FORWARDED → ACCEPTED');
    expect(stdout).toContain('9. nfe: 2 items, <vNF>38.90</vNF>');
    expect(before).toBeGreaterThanOrEqual(1);
    expect(forwardedPayload(receiver.requests.at(-1)!).orderId).toBe(`ORD-${run}`);
  });

  (hasCurl ? it : it.skip)('stops with a non-zero exit at the first step that fails', async () => {
    // The receiver refuses: step 6 (forward) answers 502, so steps 7 and 8 must not run.
    receiver.fallback = (_request, response) => {
      response.writeHead(500);
      response.end('down');
    };
    try {
      const failed = await execFileAsync('bash', ['scripts/walkthrough.sh'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, BASE: t.baseUrl, CLIENT_ID: BOOTSTRAP_ID, CLIENT_SECRET: BOOTSTRAP_SECRET, RUN: `fail${Date.now()}` },
      }).then(
        () => undefined,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failed?.code).toBeGreaterThan(0);
      expect(failed?.stdout).toContain('5. listed:');
      expect(failed?.stdout).not.toContain('7. status:');
    } finally {
      receiver.fallback = (_request, response) => {
        response.writeHead(200);
        response.end('ok');
      };
    }
  });

  it('runs the same tour with the typed TypeScript client', async () => {
    const run = `ts${Date.now()}`;
    const result = await runWalkthrough(t.baseUrl.replace(/\/api$/, ''), BOOTSTRAP_ID, BOOTSTRAP_SECRET, run);
    expect(result.burgerTax).toBe(5.44);
    expect(result.totals).toEqual({ base: 38.9, ICMS_value: 4.66, PIS_value: 0.14, COFINS_value: 0.64, total_tax: 5.44 });
    expect(result.listed).toEqual([`ORD-${run} ENRICHED`]);
    expect(result.forwardMessage).toMatch(/forwarded/);
    expect(result.orderStatus).toBe('ACCEPTED');
    expect(result.history).toEqual(['ENRICHED', 'FORWARDED', 'ACCEPTED']);
    expect(forwardedPayload(receiver.requests.at(-1)!).orderId).toBe(`ORD-${run}`);
  });
});
