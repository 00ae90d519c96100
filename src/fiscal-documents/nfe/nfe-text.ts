import { Decimal } from 'decimal.js';
import type { Cents } from '../../tax-engine/money.js';

/** The schema's text of an amount in cents (`TDec_1302`: "10.00", "0.00"). */
export function moneyText(cents: Cents): string {
  const negative = cents < 0;
  const abs = negative ? -cents : cents;
  const units = Math.trunc(abs / 100);
  const rest = abs - units * 100;
  return `${negative ? '-' : ''}${units}.${rest < 10 ? '0' : ''}${rest}`;
}

/** Cents of a money figure of an enriched order (a JSON number with at most 2 decimals). */
export function centsOf(value: number | undefined): Cents {
  return value === undefined ? 0 : Math.round(value * 100);
}

/** The schema's text of a percentage rate (`TDec_0302a04`: "18.0000"); rates carry at most 4 decimals. */
export function rateText(rate: number | undefined): string {
  return (rate ?? 0).toFixed(4);
}

/** A quantity with 4 decimals (`TDec_1104v`), half-up; 1 when absent, not a number, or not above 0 once rounded. */
export function quantityOf(value: unknown): Decimal {
  let quantity: Decimal | undefined;
  if ((typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value))) {
    quantity = new Decimal(typeof value === 'string' ? value.trim() : value).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  }
  return quantity === undefined || quantity.lte(0) || quantity.gte(1e11) ? new Decimal(1) : quantity;
}

/** `vProd ÷ qCom` with up to 10 decimals (`TDec_1110v`), half-up, without trailing zeros past the cents. */
export function unitValueText(vProd: Cents, quantity: Decimal): string {
  const text = new Decimal(vProd).div(100).div(quantity).toFixed(10, Decimal.ROUND_HALF_UP);
  return text.replace(/(\.\d\d\d*?)0+$/, '$1');
}

/**
 * Text as the schema's `TString` admits it: characters from `!` to `ÿ` and the space (no control characters,
 * no emoji, no CJK), whitespace collapsed, no space at either end, at most `max` characters.
 */
export function schemaText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  // C1 controls (U+0080 to U+009F) sit inside the schema's range but are no printable text.
  const kept = value.replace(/\s+/g, ' ').replace(/[^\u0020-\u007E\u00A0-\u00FF]/g, '');
  return kept.replace(/ {2,}/g, ' ').trim().slice(0, max).trim();
}

/** Whether `id` is valid `TString` text as it is (cProd is printed as the product id, never altered). */
export function isSchemaText(id: string): boolean {
  return /^[!-\u00FF](?:[ -\u00FF]*[!-\u00FF])?$/.test(id) && !/[\u007F-\u009F]/.test(id);
}

/** A GTIN-8, -12, -13 or -14 with its GS1 check digit, else undefined (the item prints `SEM GTIN`). */
export function validGtin(value: unknown): string | undefined {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^(\d{8}|\d{12,14})$/.test(text)) return undefined;
  let sum = 0;
  for (let index = text.length - 2, weight = 3; index >= 0; index--, weight = 4 - weight) sum += Number(text[index]) * weight;
  return (10 - (sum % 10)) % 10 === Number(text[text.length - 1]) ? text : undefined;
}
