import { exactIntegerText, parseKeepingIntegers } from './exact-integers.js';
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
