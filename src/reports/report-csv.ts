/**
 * The reports' CSV: RFC 4180 (comma, CRLF, quotes doubled), a header row of the JSON field names, decimal points
 * and no thousands separators, so that a program reads it as the JSON and a spreadsheet opens it in any locale with
 * its import dialog. A cell starting with `=`, `+`, `-` or `@` that is not a number is written after a `'`, so that a
 * spreadsheet shows text an order carried (a store id, an order id) instead of running it as a formula.
 */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

function csvCell(value: string | number | null | undefined): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n;']/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Cents (bigint text) as the decimal text of the amount, exactly: `-1234` → `-12.34`. */
export function centsText(cents: string): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const absolute = value < 0n ? -value : value;
  return `${sign}${absolute / 100n}.${String(absolute % 100n).padStart(2, '0')}`;
}
