import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatDateTime, formatMoney, formatRate, isoToLocalInput, localInputToIsoWithOffset } from './format';

// The tests run in America/Sao_Paulo (UTC−03:00, see src/testing/setup.ts).
const NBSP = '\u00a0';

describe('formatMoney', () => {
  it("shows the API's reais as BRL in the chosen language", async () => {
    // 123450 cents = R$ 1,234.50; English groups with "," and Portuguese with ".".
    expect(formatMoney(1234.5)).toBe('R$1,234.50');
    await i18next.changeLanguage('pt-BR');
    expect(formatMoney(1234.5)).toBe(`R$${NBSP}1.234,50`);
    // 5 cents.
    expect(formatMoney(0.05)).toBe(`R$${NBSP}0,05`);
  });

  it('shows zero as an amount and a missing value as a dash', () => {
    expect(formatMoney(0)).toBe('R$0.00');
    expect(formatMoney(null)).toBe('—');
    expect(formatMoney(undefined)).toBe('—');
  });
});

describe('formatRate', () => {
  it('shows a percentage with up to four decimals, as the API keeps them', async () => {
    expect(formatRate(18)).toBe('18 %');
    expect(formatRate(1.65)).toBe('1.65 %');
    // 0.12345 has five decimals: rounded to four, 0.1235 (half away from zero).
    expect(formatRate(0.12345)).toBe('0.1235 %');
    await i18next.changeLanguage('pt-BR');
    expect(formatRate(7.6)).toBe('7,6 %');
  });

  it('shows zero as 0 % and a missing rate as a dash', () => {
    expect(formatRate(0)).toBe('0 %');
    expect(formatRate(undefined)).toBe('—');
  });
});

describe('formatDateTime', () => {
  it("shows an instant in the browser's zone, with the zone named", async () => {
    await i18next.changeLanguage('pt-BR');
    // 12:30:05 UTC is 09:30:05 at UTC−03:00; the zone's short name follows (its spelling is the ICU data's).
    expect(formatDateTime('2026-11-23T12:30:05Z')).toMatch(/^23\/11\/2026,? 09:30:05 \S+$/);
    // 01:00 UTC on the 24th is still the 23rd at UTC−03:00.
    expect(formatDateTime('2026-11-24T01:00:00Z')).toMatch(/^23\/11\/2026,? 22:00:00 \S+$/);
  });

  it('gives back text that is not a date as it is, and a dash for nothing', () => {
    expect(formatDateTime('yesterday')).toBe('yesterday');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('')).toBe('—');
  });
});

describe('localInputToIsoWithOffset and isoToLocalInput', () => {
  it("reads a datetime-local value as the browser's wall-clock time and adds its offset", () => {
    expect(localInputToIsoWithOffset('2026-11-23T09:30')).toBe('2026-11-23T09:30:00-03:00');
    expect(localInputToIsoWithOffset('')).toBeUndefined();
    expect(localInputToIsoWithOffset('not a date')).toBeUndefined();
  });

  it("shows an instant of any offset as the browser's wall-clock time, to the minute", () => {
    // 12:30 UTC is 09:30 at UTC−03:00; 10:45+02:00 is 08:45 UTC, 05:45 at UTC−03:00.
    expect(isoToLocalInput('2026-11-23T12:30:59Z')).toBe('2026-11-23T09:30');
    expect(isoToLocalInput('2026-11-23T10:45:00+02:00')).toBe('2026-11-23T05:45');
    expect(isoToLocalInput(undefined)).toBe('');
    expect(isoToLocalInput('garbage')).toBe('');
  });

  it('are the reverse of each other', () => {
    const typed = '2026-02-28T23:59';
    expect(isoToLocalInput(localInputToIsoWithOffset(typed))).toBe(typed);
  });
});
