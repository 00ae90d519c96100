import { jsonTextOf, keptJsonText, textKeepingJsonParser } from './json-body.js';

describe('textKeepingJsonParser', () => {
  /** Runs the parser on `text`; which parser answered, and how. */
  function parse(text: string) {
    const body = Buffer.from(text, 'utf8');
    const fallbackCalls: Buffer[] = [];
    const fallback = (_request: unknown, received: Buffer, done: (error: Error | null, value?: unknown) => void) => {
      fallbackCalls.push(received);
      done(new Error('answered by the fallback'));
    };
    let outcome: { error: Error | null; value?: unknown } | undefined;
    textKeepingJsonParser(fallback as never).call({} as never, {} as never, body, (error: Error | null, value?: unknown) => {
      outcome = { error, value };
    });
    return { body, outcome: outcome!, fellBack: fallbackCalls.length === 1 && fallbackCalls[0] === body };
  }

  it('parses a plain body itself and keeps its text', () => {
    const { body, outcome, fellBack } = parse('{"orderId":"A-1","items":[{"name":"pão de queijo","price":1.5}]}');
    expect(fellBack).toBe(false);
    expect(outcome).toEqual({ error: null, value: { orderId: 'A-1', items: [{ name: 'pão de queijo', price: 1.5 }] } });
    expect(keptJsonText(body)).toBe('{"orderId":"A-1","items":[{"name":"pão de queijo","price":1.5}]}');
    expect(jsonTextOf(body)).toBe(keptJsonText(body));
  });

  it.each([
    ['a __proto__ key', '{"__proto__":{"x":1}}'],
    ['a constructor key', '{"constructor":{"prototype":{}}}'],
    ['a \\u escape (which could spell either)', '{"\\u005f_proto__":{}}'],
    ['a byte-order mark', '\ufeff{"a":1}'],
    ['an empty body', ''],
    ['malformed JSON', '{"a":'],
  ])('leaves a body with %s to the fallback, and keeps no text', (_case, text) => {
    const { body, outcome, fellBack } = parse(text);
    expect(fellBack).toBe(true);
    expect(outcome.error?.message).toBe('answered by the fallback');
    expect(keptJsonText(body)).toBeUndefined();
    expect(jsonTextOf(body)).toBe(body.toString('utf8'));
  });
});
