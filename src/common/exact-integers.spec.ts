import { exactIntegerText, mayHoldInexactNumbers, parseKeepingIntegers, writtenNumberText } from './exact-integers.js';
import { textKeepingJsonParser } from './http/json-body.js';

describe('integers past 2^53 keep their digits', () => {
  it('records the source text of an unsafe integer beside its holder, and nothing for safe ones', () => {
    const parsed = parseKeepingIntegers('{"order_id":1152921547153933576,"count":3,"list":[98765432109876543210]}') as Record<string, any>;
    expect(parsed.order_id).toBe(1152921547153933600); // the number every other reader sees, as before
    expect(exactIntegerText(parsed, 'order_id')).toBe('1152921547153933576');
    expect(exactIntegerText(parsed.list, 0)).toBe('98765432109876543210');
    expect(exactIntegerText(parsed, 'count')).toBeUndefined();
  });

  it('the body parser keeps them on both of its paths (its own and the fallback)', () => {
    const run = (text: string) => {
      let value: unknown;
      const fallback = (_request: unknown, body: Buffer, done: (error: Error | null, value?: unknown) => void) =>
        done(null, JSON.parse(body.toString('utf8')));
      textKeepingJsonParser(fallback as never).call(
        {} as never,
        {} as never,
        Buffer.from(text),
        (_error: Error | null, parsed?: unknown) => (value = parsed),
      );
      return value as Record<string, unknown>;
    };
    expect(exactIntegerText(run('{"id":11529215471539335761}'), 'id')).toBe('11529215471539335761');
    // A \u escape sends the body to Fastify's parser: read again to keep the integer.
    expect(exactIntegerText(run('{"name":"Ant\\u00f4nio","id":11529215471539335761}'), 'id')).toBe('11529215471539335761');
  });
});

describe('numbers not read as written keep their text', () => {
  it('records the written text of a number JSON.parse reads as another decimal, and nothing for one read as written', () => {
    const parsed = parseKeepingIntegers(
      '{"a":0.0049999999999999999,"b":25.9,"list":[2.0000000000000000001,1e400],"c":12.50,"d":1152921547153933576}',
    ) as Record<string, any>;
    expect(parsed.a).toBe(0.005); // the number every other reader sees, as before
    expect(writtenNumberText(parsed, 'a')).toBe('0.0049999999999999999');
    expect(writtenNumberText(parsed.list, 0)).toBe('2.0000000000000000001');
    expect(writtenNumberText(parsed.list, 1)).toBe('1e400');
    expect(writtenNumberText(parsed, 'd')).toBe('1152921547153933576');
    expect(writtenNumberText(parsed, 'b')).toBeUndefined();
    // Not how JavaScript writes 12.5, so kept; the same decimal all the same.
    expect(writtenNumberText(parsed, 'c')).toBe('12.50');
  });

  it('the body parser keeps them on both of its paths', () => {
    const run = (text: string) => {
      let value: unknown;
      const fallback = (_request: unknown, body: Buffer, done: (error: Error | null, value?: unknown) => void) =>
        done(null, JSON.parse(body.toString('utf8')));
      textKeepingJsonParser(fallback as never).call(
        {} as never,
        {} as never,
        Buffer.from(text),
        (_error: Error | null, parsed?: unknown) => {
          value = parsed;
        },
      );
      return value as Record<string, unknown>;
    };
    expect(writtenNumberText(run('{"quantity":2.0000000000000000001}'), 'quantity')).toBe('2.0000000000000000001');
    // A \u escape sends the body to Fastify's parser: read again to keep the text.
    expect(writtenNumberText(run('{"name":"Ant\\u00f4nio","quantity":2.0000000000000000001}'), 'quantity')).toBe('2.0000000000000000001');
  });

  it('skips the recording only for a text whose every number a double keeps as written', () => {
    // At most 15 significant digits and an exponent of at most 2 digits: read as written.
    expect(mayHoldInexactNumbers('{"a":123456789012345,"b":1.2345678901234e-99,"c":0.0000000000001}')).toBe(false);
    expect(mayHoldInexactNumbers('{"a":1234567890123456}')).toBe(true); // 16 digits
    expect(mayHoldInexactNumbers('{"a":1234567.123456789}')).toBe(true); // 16 digits around a point
    expect(mayHoldInexactNumbers('{"a":1e-400}')).toBe(true); // read as 0
    expect(mayHoldInexactNumbers('{"a":1E308}')).toBe(true);
  });
});
