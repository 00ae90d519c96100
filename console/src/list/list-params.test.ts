import { describe, expect, it } from 'vitest';
import { apiQueryOf, pageOf, readListParams, withPage, writeListParams } from './list-params';

describe('list parameters in the URL', () => {
  it('reads each named parameter (blank when absent) and the page', () => {
    const search = new URLSearchParams('storeId=s1&page=3&other=x');
    expect(readListParams(search, ['storeId', 'status'])).toEqual({ values: { storeId: 's1', status: '' }, page: 3 });
  });

  it('takes page 1 for an absent, zero, negative or non-numeric page', () => {
    expect([null, '0', '-2', 'abc', '1'].map(pageOf)).toEqual([1, 1, 1, 1, 1]);
    expect(pageOf('2.7')).toBe(2);
  });

  it('writes a new filter choice without blank values, trimmed, and on the first page', () => {
    expect(writeListParams({ storeId: ' s1 ', status: '', source: undefined, orderId: '   ' }).toString()).toBe('storeId=s1');
  });

  it('moves to another page keeping the filters, with no page parameter for the first', () => {
    const search = new URLSearchParams('storeId=s1&page=2');
    expect(withPage(search, 5).toString()).toBe('storeId=s1&page=5');
    expect(withPage(search, 1).toString()).toBe('storeId=s1');
    expect(search.toString()).toBe('storeId=s1&page=2');
  });

  it("gives the API the URL's values as written, a bad page included, and leaves blanks out", () => {
    const search = new URLSearchParams('storeId=s1&status=&page=abc&pageSize=7');
    expect(apiQueryOf(search, ['storeId', 'status', 'pageSize'])).toEqual({ storeId: 's1', pageSize: '7', page: 'abc' });
  });
});
