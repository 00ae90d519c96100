import { requestIdFor } from './http-hooks.js';
import { jsonBodyProblem, nestsDeeperThan, requestTargetProblem } from './storable-text.js';

describe('nestsDeeperThan', () => {
  const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

  it('measures arrays and objects, iteratively', () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`), 64)).toBe(true);
    // Far beyond any recursion limit: still answered.
    expect(nestsDeeperThan(nested(200_000), 64)).toBe(true);
  });

  it('treats scalars and wide shallow values as shallow', () => {
    expect(nestsDeeperThan('text', 1)).toBe(false);
    expect(nestsDeeperThan(null, 1)).toBe(false);
    expect(nestsDeeperThan({ a: Array.from({ length: 10_000 }, (_, index) => ({ index })) }, 3)).toBe(false);
  });
});

describe('jsonBodyProblem', () => {
  it('finds a NUL character in a string or a key, at any depth', () => {
    expect(jsonBodyProblem({ a: [{ b: 'x\u0000y' }] }, 64)).toEqual({
      kind: 'unstorable',
      path: 'a[0].b',
      reason: expect.stringContaining('NUL'),
    });
    expect(jsonBodyProblem({ 'k\u0000': 1 }, 64)).toMatchObject({ path: 'k\u0000', reason: expect.stringContaining('property name') });
    expect(jsonBodyProblem(['\u0000'], 64)).toMatchObject({ path: '[0]' });
    expect(jsonBodyProblem({ a: 'backslash-u: \\u0000 is text' }, 64)).toBeUndefined();
    expect(jsonBodyProblem({ a: [1, true, null, 'ok'] }, 64)).toBeUndefined();
  });

  it('finds a lone surrogate but keeps paired ones (emoji)', () => {
    expect(jsonBodyProblem({ name: 'ok 🍔', list: ['\ud800x'] }, 64)).toMatchObject({
      path: 'list[0]',
      reason: expect.stringContaining('surrogate'),
    });
    expect(jsonBodyProblem({ name: 'ok 🍔' }, 64)).toBeUndefined();
  });

  it('given the text parsed, looks at strings only when it holds a \\u escape, and still at the depth', () => {
    const parsed = (text: string) => [JSON.parse(text) as unknown, 64, Buffer.from(text)] as const;
    expect(jsonBodyProblem(...parsed('{"a":[{"b":"x\\u0000y"}]}'))).toMatchObject({ kind: 'unstorable', path: 'a[0].b' });
    expect(jsonBodyProblem(...parsed('{"k\\u0000":1}'))).toMatchObject({ path: 'k\u0000' });
    expect(jsonBodyProblem(...parsed('{"a":["\\ud800x"]}'))).toMatchObject({ path: 'a[0]', reason: expect.stringContaining('surrogate') });
    expect(jsonBodyProblem(...parsed('{"a":"é \\\\ 🍔","b":[1,{"c":null}]}'))).toBeUndefined();
    const deep = (levels: number) => `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
    // Each level is an object holding an array: 32 levels nest 64 deep, 33 levels 66.
    expect(jsonBodyProblem(...parsed(deep(32)))).toBeUndefined();
    expect(jsonBodyProblem(...parsed(deep(33)))).toEqual({ kind: 'too-deep' });
    expect(jsonBodyProblem(...parsed(`[${deep(32)}]`))).toEqual({ kind: 'too-deep' });
  });
});

describe('requestTargetProblem', () => {
  it('names the query parameter or the path that cannot be stored', () => {
    expect(requestTargetProblem('/api/admin/orders?page=1&storeId=a%00')).toEqual({
      field: 'query parameter "storeId"',
      reason: expect.stringContaining('NUL'),
    });
    expect(requestTargetProblem('/api/admin/orders?storeId=%ED%A0%80')).toMatchObject({ field: 'query parameter "storeId"' });
    expect(requestTargetProblem('/api/admin/orders/%00')).toMatchObject({ field: 'path' });
    expect(requestTargetProblem('/api/admin/orders?x=%E2%82%AC+1&y')).toBeUndefined();
    expect(requestTargetProblem('/api/admin/orders?x=1&y')).toBeUndefined();
    expect(requestTargetProblem('/api/admin/orders?x=a\u0000')).toMatchObject({ field: 'query parameter "x"' });
  });
});

describe('requestIdFor', () => {
  it('keeps a safe caller id and replaces anything else', () => {
    expect(requestIdFor({ headers: { 'x-request-id': 'abc-123:x.y' } } as never)).toBe('abc-123:x.y');
    expect(requestIdFor({ headers: { 'x-request-id': 'a b' } } as never)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor({ headers: { 'x-request-id': 'x'.repeat(129) } } as never)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor({ headers: {} } as never)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
