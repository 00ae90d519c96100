import { taxInstantOf } from './tax-instant.js';

describe('taxInstantOf', () => {
  const received = Date.parse('2026-11-26T12:00:00.000Z');

  it('takes createdAt inside the window, its offset applied', () => {
    expect(taxInstantOf('2026-11-26T08:30:00-03:00', received).toISOString()).toBe('2026-11-26T11:30:00.000Z');
    expect(taxInstantOf('2026-11-25T12:00:00Z', received).toISOString()).toBe('2026-11-25T12:00:00.000Z'); // exactly 24 h before
    expect(taxInstantOf('2026-11-26T12:05:00Z', received).toISOString()).toBe('2026-11-26T12:05:00.000Z'); // exactly 5 min after
  });

  it('takes the receipt when createdAt is outside the window, invalid, without its offset or absent', () => {
    for (const createdAt of [
      '2026-11-25T11:59:59.999Z',
      '2026-11-26T12:05:00.001Z',
      '2026-02-30T10:00:00Z',
      // A point of sale's local time in São Paulo (UTC-03:00): 08:30 there is 11:30Z, but read as UTC it would be 08:30Z.
      '2026-11-26T08:30:00',
      '2026-11-26T08:30:00.006',
      '2026-11-26T08:30:00-0300', // an offset RFC 3339 does not write (no colon)
      'yesterday',
      1764158400000,
      undefined,
    ]) {
      expect(taxInstantOf(createdAt, received).toISOString()).toBe('2026-11-26T12:00:00.000Z');
    }
  });
});
