import { idText } from './id-text.js';

describe('idText', () => {
  it.each([
    ['ORD-1', 'ORD-1'],
    [' ORD-1 ', ' ORD-1 '],
    ['0042', '0042'],
    [0, '0'],
    [1201, '1201'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ])('reads %j as the id %j', (value, expected) => {
    expect(idText(value)).toBe(expected);
  });

  it.each([[''], ['   '], ['\t\n'], [-1], [1.5], [Number.NaN], [Infinity], [2 ** 53], [null], [undefined], [true], [{ id: 1 }], [['1']]])(
    'refuses %j',
    (value) => {
      expect(idText(value)).toBeUndefined();
    },
  );
});
