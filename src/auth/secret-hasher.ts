import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (secret: string, salt: Buffer, keyLength: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(secret, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

const COST = 16_384;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;

/**
 * Client secrets are stored only as salted scrypt hashes (`scrypt$N$r$p$salt$hash`).
 * Verification of an unknown client runs the same hash against a dummy, so that
 * response time does not reveal whether a client id exists.
 */
export class SecretHasher {
  private readonly dummyHash = this.hash('dummy secret that never matches');

  async hash(secret: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scrypt(secret, salt, KEY_LENGTH, { N: COST, r: BLOCK_SIZE, p: PARALLELISM });
    return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(secret: string, stored: string | undefined): Promise<boolean> {
    const encoded = stored ?? (await this.dummyHash);
    const [scheme, cost, blockSize, parallelism, saltText, keyText] = encoded.split('$');
    if (scheme !== 'scrypt' || !saltText || !keyText) return false;
    const expected = Buffer.from(keyText, 'base64');
    const actual = await scrypt(secret, Buffer.from(saltText, 'base64'), expected.length, {
      N: Number(cost),
      r: Number(blockSize),
      p: Number(parallelism),
    });
    return timingSafeEqual(actual, expected) && stored !== undefined;
  }
}
