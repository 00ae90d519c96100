import argon2 from 'argon2';

/**
 * argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes: above OWASP's minimum), stored
 * as the PHC string, whose parameters verification reads back. A person without a password is
 * checked against a dummy hash, so that the time taken does not tell which emails exist.
 */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
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
