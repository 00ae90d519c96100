import i18next from 'i18next';

/** The API's money values are decimal numbers with at most two places (reais); shown as BRL. */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return new Intl.NumberFormat(i18next.language, { style: 'currency', currency: 'BRL' }).format(value);
}

/** A quantity (whole or fractional, e.g. 0.5 kg), in the chosen language's digits. */
export function formatQuantity(value: number): string {
  return new Intl.NumberFormat(i18next.language, { maximumFractionDigits: 4 }).format(value);
}

/** An amount in integer cents, shown as BRL. */
export function formatCents(cents: number | null | undefined): string {
  return formatMoney(cents === null || cents === undefined ? cents : cents / 100);
}

/** A rate in percent (e.g. 18 or 1.65), up to four decimals as the API keeps them. */
export function formatRate(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return `${new Intl.NumberFormat(i18next.language, { maximumFractionDigits: 4 }).format(value)} %`;
}

/** An instant in the browser's time zone, with the zone shown. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // dateStyle/timeStyle cannot be combined with timeZoneName (Chromium throws), so the fields are named one by one.
  return new Intl.DateTimeFormat(i18next.language, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

/**
 * A `datetime-local` input value (the browser's wall-clock time, no zone) as ISO 8601 with the
 * browser's offset for that instant, e.g. "2026-11-23T09:30:00-03:00": what `createdFrom` takes.
 */
export function localInputToIsoWithOffset(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  const offsetMinutes = -date.getTimezoneOffset();
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local =
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The reverse: an ISO instant (any offset) as a `datetime-local` value in the browser's zone. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` + `T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
