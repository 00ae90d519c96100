import argon2 from 'argon2';

/** OWASP's first recommended argon2id setting: 19 MiB, 2 passes, 1 lane (a sign-in costs tens of milliseconds on one core). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id, stored as the PHC string, whose parameters verification reads back (so they can be
 * raised later without breaking stored hashes). A person without a password is
 * checked against a dummy hash, so that the time taken does not tell which emails exist.
 */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(password: string, stored: string | null | undefined): Promise<boolean> {
    if (!stored) {
      this.dummy ??= this.hash('no password is ever this one');
      await argon2.verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return argon2.verify(stored, password).catch(() => false);
  }
}
