// @ts-expect-error: a plain ES module script, without types.
import { auditVerdict } from '../../scripts/audit-production.mjs';

describe('the production dependency audit of CI', () => {
  const report = (vulnerabilities: Record<string, number>) => JSON.stringify({ metadata: { vulnerabilities } });

  it('fails on a high or a critical advisory', () => {
    expect(auditVerdict(report({ low: 0, moderate: 1, high: 1, critical: 0 }), '').code).toBe(1);
    expect(auditVerdict(report({ critical: 2 }), '').code).toBe(1);
  });

  it('passes with low and moderate ones only', () => {
    expect(auditVerdict(report({ low: 3, moderate: 2, high: 0, critical: 0 }), '')).toEqual({
      code: 0,
      message: expect.stringMatching(/moderate/),
    });
  });

  it('says loudly, without failing, when the registry has no audit endpoint', () => {
    const verdict = auditVerdict('', 'npm warn audit 405 Method Not Allowed\nnpm error audit endpoint returned an error');
    expect(verdict.code).toBe(0);
    expect(verdict.message).toMatch(/NOT audited/);
  });
});
