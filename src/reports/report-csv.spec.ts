import { centsText, csvLine } from './report-csv.js';

describe('report CSV', () => {
  it('writes cents as exact decimal text', () => {
    expect(centsText('0')).toBe('0.00');
    expect(centsText('5')).toBe('0.05');
    expect(centsText('1399')).toBe('13.99');
    expect(centsText('-1234')).toBe('-12.34');
    // 2^53 + 1 cents: beyond a double's integers, still exact.
    expect(centsText('9007199254740993')).toBe('90071992547409.93');
  });

  it('quotes delimiters and keeps formulas as text', () => {
    expect(csvLine(['a,b', 'say "hi"', null, 12.5, '-3.10'])).toBe('"a,b","say ""hi""",,12.5,-3.10\r\n');
    expect(csvLine(['=HYPERLINK("x")', '+1 555', '@SUM(A1)'])).toBe(`"'=HYPERLINK(""x"")","'+1 555","'@SUM(A1)"\r\n`);
  });
});
