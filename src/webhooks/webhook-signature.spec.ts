import { createHmac, KeyObject } from 'node:crypto';
import { signingKey, whsecProblem } from '../config/webhook-secret.js';
import { canonicalJson, signature, webhookHeaders, webhookIdFor, webhookIdOfCanonical } from './webhook-signature.js';

describe('Standard Webhooks signing', () => {
  it('signs "id.timestamp.body" with HMAC-SHA256, base64, prefixed v1', () => {
    // Reference vector of the Standard Webhooks specification (standard-webhooks/libraries, test suite).
    const key = signingKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    const signed = signature(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signed).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes the key once, as a secret KeyObject of the decoded bytes (Node 24 checks a Buffer key on every signature)', () => {
    const key = signingKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(key).toBeInstanceOf(KeyObject);
    expect(key.type).toBe('secret');
    expect(key.export()).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
  });

  it('uses the UTF-8 bytes of a secret without the whsec_ prefix', () => {
    const expected = createHmac('sha256', Buffer.from('plain sécret', 'utf8')).update('msg_1.10.{}').digest('base64');
    expect(signature(signingKey('plain sécret'), 'msg_1', 10, '{}')).toBe(`v1,${expected}`);
  });

  it('validates whsec_ secrets', () => {
    expect(whsecProblem('not-prefixed')).toBeUndefined();
    expect(whsecProblem(`whsec_${Buffer.alloc(24).toString('base64')}`)).toBeUndefined();
    expect(whsecProblem('whsec_')).toMatch(/base64/);
    expect(whsecProblem('whsec_abc')).toMatch(/base64/);
    expect(whsecProblem(`whsec_${Buffer.alloc(65).toString('base64')}`)).toMatch(/24 to 64 bytes \(this one has 65\)/);
  });

  it('builds the headers, with a signature only when there is a key', () => {
    const unsigned = webhookHeaders({ webhookId: 'msg_x', timestamp: 1700000000, body: '{"a":1}' });
    expect(unsigned).toEqual({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/order-tax-service/),
      'webhook-id': 'msg_x',
      'webhook-timestamp': '1700000000',
    });
    const key = signingKey('k');
    const signed = webhookHeaders({ webhookId: 'msg_x', timestamp: 1700000000, body: '{"a":1}', key });
    expect(signed['webhook-signature']).toBe(signature(key, 'msg_x', 1700000000, '{"a":1}'));
    expect(JSON.stringify(signed)).not.toContain('"k"');
  });
});

describe('webhook-id', () => {
  const payload = {
    orderId: 'A-1',
    store: { id: 's', name: 'n' },
    order: { products: [{ productId: 'p', price: { totalPrice: { total: 25.9 } } }] },
  };

  it('is the same for the same payload whatever the key order (a jsonb column reorders keys)', () => {
    const reordered = JSON.parse(
      '{"order":{"products":[{"price":{"totalPrice":{"total":25.9}},"productId":"p"}]},"store":{"name":"n","id":"s"},"orderId":"A-1"}',
    );
    expect(webhookIdFor('9b2d', reordered)).toBe(webhookIdFor('9b2d', payload));
    expect(webhookIdFor('9b2d', payload)).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
  });

  it('differs for another order or another payload', () => {
    expect(webhookIdFor('other', payload)).not.toBe(webhookIdFor('9b2d', payload));
    expect(webhookIdFor('9b2d', { ...payload, orderId: 'A-2' })).not.toBe(webhookIdFor('9b2d', payload));
    // Array order matters.
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('canonical JSON sorts keys at every level and keeps values as JSON writes them', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 'x' }], a: null, e: undefined, f: -0, g: 'é"' })).toBe(
      '{"a":null,"b":[{"c":"x","d":1}],"f":0,"g":"é\\""}',
    );
  });
  it('canonical JSON writes the value JSON.stringify writes, only its keys in order; the id of that text is the id of the value', () => {
    const value = { z: [undefined, () => 1, { y: 2, x: [] }], m: { skip: undefined, fn: () => 1, n: 1e21, s: 'a\u0000b' }, a: true };
    const text = canonicalJson(value);
    expect(text).toBe('{"a":true,"m":{"n":1e+21,"s":"a\\u0000b"},"z":[null,null,{"x":[],"y":2}]}');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    expect(webhookIdOfCanonical('9b2d', text)).toBe(webhookIdFor('9b2d', value));
  });
});
