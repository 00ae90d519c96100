import { describe, expect, it } from 'vitest';
import { isObj, num, text } from './values';

describe("the readers of the API's loosely typed JSON", () => {
  it('isObj accepts plain objects only', () => {
    expect(isObj({ a: 1 })).toBe(true);
    expect(isObj({})).toBe(true);
    expect(isObj([])).toBe(false);
    expect(isObj(null)).toBe(false);
    expect(isObj('{}')).toBe(false);
  });

  it('num reads finite numbers only', () => {
    expect(num(12.5)).toBe(12.5);
    expect(num(0)).toBe(0);
    expect(num('12.5')).toBeUndefined();
    expect(num(Number.NaN)).toBeUndefined();
    expect(num(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('text reads non-empty strings only', () => {
    expect(text('X-Burger')).toBe('X-Burger');
    expect(text('')).toBeUndefined();
    expect(text(12)).toBeUndefined();
  });
});
