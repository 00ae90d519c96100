import { isPlainObject } from './plain-object.js';

describe('isPlainObject', () => {
  it('is true for objects and false for null, arrays and primitives', () => {
    expect([{}, { a: 1 }, Object.create(null)].map((value) => isPlainObject(value))).toEqual([true, true, true]);
    expect([null, undefined, [], [1], 'x', 1, true].map((value) => isPlainObject(value))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
