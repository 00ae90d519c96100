import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** The name authenticator apps show beside the person's email. */
export const TOTP_ISSUER = 'Order Tax Console';
/** RFC 6238's defaults, the ones every authenticator app reads: HMAC-SHA1, 6 digits, 30-second steps. */
const TOTP_SETTINGS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/**
 * Codes of the step before and after the server's are taken too (RFC 6238 §5.2 allows a small window for clock drift
 * and the seconds the person takes to type).
 */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new random TOTP secret (160 bits, RFC 4226's recommended length), in base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/**
 * The RFC 6238 time step `code` belongs to, when it is a code of `secretBase32` within the drift window of `timestampMs`;
 * null otherwise. The caller refuses a step it has already accepted (a code is taken once).
 */
export function matchingStep(secretBase32: string, code: string, timestampMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: timestampMs, window: DRIFT_STEPS });
  return delta === null ? null : TOTP.counter({ period: TOTP_SETTINGS.period, timestamp: timestampMs }) + delta;
}

/** The code of `secretBase32` at `timestampMs` (what an authenticator app shows; tests use it). */
export function totpCodeAt(secretBase32: string, timestampMs: number): string {
  return totpOf(secretBase32).generate({ timestamp: timestampMs });
}

function totpOf(secretBase32: string, label = 'account'): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, secret: Secret.fromBase32(secretBase32), ...TOTP_SETTINGS });
}

/** Ten codes of ten characters (`abcde-fghjk`, about 49 bits each) from an alphabet without look-alikes (0/o, 1/l/i). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
}

/** A recovery code as typed, in the one form that is hashed: lower case, without spaces or dashes. */
export function normalizedRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

/**
 * The keys of two-factor sign-in, each derived from JWT_SECRET for its one use (HKDF), so that none can pass for
 * another: the secrets' encryption, the recovery codes' keyed hash and the sign-in challenge's signature.
 */
export class TwoFactorKeys {
  private readonly encryptionKey: Buffer;
  private readonly recoveryKey: Buffer;
  private readonly challengeKey: Buffer;

  constructor(jwtSecret: string) {
    const derive = (use: string) => Buffer.from(hkdfSync('sha256', jwtSecret, 'order-tax-service', use, 32));
    this.encryptionKey = derive('totp-secret-encryption');
    this.recoveryKey = derive('recovery-code-hash');
    this.challengeKey = derive('sign-in-challenge');
  }

  /** `v1.<iv>.<tag>.<ciphertext>` (base64url), AES-256-GCM: a copy of the table reveals no secret. */
  encrypt(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The secret, or null when it was encrypted with another JWT_SECRET (or altered). */
  decrypt(stored: string): string | null {
    const [version, iv, tag, ciphertext] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || !ciphertext) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  /** HMAC-SHA256 of the normalized code: a copy of the table cannot be searched offline without the key. */
  recoveryCodeHash(code: string): string {
    return createHmac('sha256', this.recoveryKey).update(normalizedRecoveryCode(code)).digest('hex');
  }

  /** A signed, expiring statement that `userId` gave the right password and must now do `next`. */
  signChallenge(challenge: SignInChallenge): string {
    const body = Buffer.from(JSON.stringify(challenge)).toString('base64url');
    return `${body}.${this.challengeSignature(body)}`;
  }

  /** The challenge when its signature checks out and it has not expired; undefined otherwise. */
  readChallenge(token: string, now = Date.now()): SignInChallenge | undefined {
    const [body, signature] = token.split('.');
    if (!body || !signature) return undefined;
    const expected = Buffer.from(this.challengeSignature(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const challenge = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignInChallenge;
      return challenge.expiresAt > now ? challenge : undefined;
    } catch {
      return undefined;
    }
  }

  private challengeSignature(body: string): string {
    return createHmac('sha256', this.challengeKey).update(body).digest('base64url');
  }
}

/** What a person must do after the right password: give a code (`totp`), or enrol first (`enrol`, a role that requires it). */
export type SignInChallengeStep = 'totp' | 'enrol';

export interface SignInChallenge {
  userId: string;
  next: SignInChallengeStep;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}
