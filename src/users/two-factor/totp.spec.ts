import { matchingStep, newRecoveryCodes, normalizedRecoveryCode, totpCodeAt, TwoFactorKeys } from './totp.js';

/** RFC 6238 appendix B: the SHA-1 secret is the ASCII "12345678901234567890", in base32 below. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP (RFC 6238)', () => {
  // The appendix's 8-digit values; a 6-digit code is the same HOTP value mod 10^6 (RFC 4226 §5.3), its last 6 digits.
  const vectors: Array<[seconds: number, eightDigits: string]> = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];

  it.each(vectors)('at %i s the code is the last 6 digits of %s, and it matches its step (T = floor(t / 30))', (seconds, eightDigits) => {
    const code = eightDigits.slice(2);
    expect(totpCodeAt(RFC_SECRET, seconds * 1000)).toBe(code);
    expect(matchingStep(RFC_SECRET, code, seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  it('takes the code of the step before and after (clock drift), not two steps away', () => {
    const now = 1111111111 * 1000;
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 30_000), now)).toBe(Math.floor(1111111111 / 30) - 1);
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now + 30_000), now)).toBe(Math.floor(1111111111 / 30) + 1);
    expect(matchingStep(RFC_SECRET, totpCodeAt(RFC_SECRET, now - 60_000), now)).toBeNull();
    expect(matchingStep(RFC_SECRET, 'abcdef', now)).toBeNull();
    expect(matchingStep(RFC_SECRET, '1234567', now)).toBeNull();
  });
});

describe('recovery codes and the two-factor keys', () => {
  const keys = new TwoFactorKeys('a-jwt-secret-long-enough-for-the-test');

  it('makes ten distinct codes, hashed alike however they are typed', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(normalizedRecoveryCode(' ABCDE-fghjk ')).toBe('abcdefghjk');
    expect(keys.recoveryCodeHash('ABCDE FGHJK')).toBe(keys.recoveryCodeHash('abcde-fghjk'));
    expect(keys.recoveryCodeHash('abcde-fghjk')).not.toBe(new TwoFactorKeys('another-jwt-secret-entirely').recoveryCodeHash('abcde-fghjk'));
  });

  it('encrypts a secret so that only the same JWT_SECRET reads it', () => {
    const stored = keys.encrypt(RFC_SECRET);
    expect(stored).not.toContain(RFC_SECRET);
    expect(keys.decrypt(stored)).toBe(RFC_SECRET);
    expect(new TwoFactorKeys('another-jwt-secret-entirely').decrypt(stored)).toBeNull();
  });

  it('reads back a challenge it signed until it expires, and refuses an altered one', () => {
    const token = keys.signChallenge({ userId: 'u1', next: 'totp', expiresAt: 2_000 });
    expect(keys.readChallenge(token, 1_000)).toEqual({ userId: 'u1', next: 'totp', expiresAt: 2_000 });
    expect(keys.readChallenge(token, 2_000)).toBeUndefined();
    const [body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ userId: 'u2', next: 'totp', expiresAt: 2_000 })).toString('base64url');
    expect(keys.readChallenge(`${forged}.${signature}`, 1_000)).toBeUndefined();
    expect(keys.readChallenge(`${body}.`, 1_000)).toBeUndefined();
  });
});
