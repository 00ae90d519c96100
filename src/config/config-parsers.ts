import proxyAddr from '@fastify/proxy-addr';

/** Thrown by a parser: the message completes "VARIABLE_NAME ..." in the start's error. */
export class InvalidValue extends Error {}

export const integer =
  (min: number, max: number) =>
  (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new InvalidValue(`must be an integer between ${min} and ${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw new InvalidValue(`must be an integer between ${min} and ${max}`);
    return value;
  };

export const boolean = (raw: string): boolean => {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new InvalidValue('must be true or false');
};

export const optionalText = (raw: string): string | undefined => (raw.trim() === '' ? undefined : raw);

export const httpUrl = (raw: string): string | undefined => {
  if (raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidValue('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidValue('must be an http(s) URL');
  return raw;
};

/** `smtp://` or `smtps://` with a host; the message never repeats the value (it may hold a password). */
export const smtpUrl = (raw: string): string | undefined => {
  if (raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidValue('must be an smtp:// or smtps:// URL');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new InvalidValue('must be an smtp:// or smtps:// URL with a host');
  }
  return raw.trim();
};

export const postgresUrl = (raw: string): string | undefined => {
  if (raw.trim() === '') return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error();
  } catch {
    throw new InvalidValue('must be a postgres:// or postgresql:// URL');
  }
  return raw;
};

export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string): T => {
    const value = raw.trim().toLowerCase() as T;
    if (!values.includes(value)) throw new InvalidValue(`must be one of ${values.join(', ')}`);
    return value;
  };

export const durationList = (raw: string): number[] => {
  const parts = raw.split(',').map((part) => part.trim());
  const values = parts.map((part) => parseDuration(part));
  if (values.some((value) => value === undefined) || values.length === 0) {
    throw new InvalidValue('must be a comma-separated list of durations such as 5s,5m,30m,2h');
  }
  return values as number[];
};

/**
 * The reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges or proxy-addr's
 * names (`loopback`, `linklocal`, `uniquelocal`). Never "every address" and never a hop count:
 * either lets a client that reaches the service directly pick the address it is counted under.
 */
export const trustedProxies = (raw: string): string[] | undefined => {
  const value = raw.trim();
  if (value === '') return undefined;
  const entries = value.split(',').map((entry) => entry.trim());
  const spoofable = ['true', '*', 'all', '0.0.0.0/0', '::/0'];
  if (entries.some((entry) => spoofable.includes(entry.toLowerCase()) || /^\d+$/.test(entry))) {
    throw new InvalidValue(
      "must list the proxies' addresses or CIDR ranges (e.g. 172.28.0.10 or 10.0.0.0/8): trusting every address or a number of hops lets a client choose the address it is counted under",
    );
  }
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    throw new InvalidValue(
      `must be a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal (${(error as Error).message})`,
    );
  }
  return entries;
};

/** `500ms`, `5s`, `5m`, `2h` or a bare number of milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!;
  return amount * factor;
}
