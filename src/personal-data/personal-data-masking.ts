import { Injectable } from '@nestjs/common';
import { isPlainObject } from '../common/plain-object.js';
import type { OrderPersonalDataView, PersonalDataView } from '../orders/order-personal-data-view.port.js';
import { PersonalDataKeys } from './personal-data-keys.js';
import type { PersonalValue } from './personal-values.js';

/** What replaces a contact value in free text (a receiver's answer) for a reader who may not see it at all. */
export const HIDDEN_MARKER = '[hidden]';
/** Shorter values are left in free text: `12` would be replaced inside every amount. */
const MIN_TEXT_VALUE_LENGTH = 4;

const CONTACT_KINDS = new Set<PersonalValue['kind']>(['email', 'phone', 'document']);

/** `a***@example.com`: the first character and the domain. */
export function maskedEmail(value: string): string {
  const at = value.lastIndexOf('@');
  return at <= 0 ? '***' : `${value[0]}***${value.slice(at)}`;
}

/** `(**) *****-4321`: the last four digits. */
export function maskedPhone(value: string | number): string {
  const digits = String(value).replace(/\D/g, '');
  return digits.length <= 4 ? '****' : `(**) *****-${digits.slice(-4)}`;
}

/** A CPF `***.456.789-**` (its middle six digits); a CNPJ `**.***.456/7890-**`; anything else, its last two digits. */
export function maskedDocument(value: string | number): string {
  const digits = String(value).replace(/\D/g, '');
  if (digits.length === 11) return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  if (digits.length === 14) return `**.***.${digits.slice(5, 8)}/${digits.slice(8, 12)}-**`;
  return digits.length <= 2 ? '***' : `***${digits.slice(-2)}`;
}

export function maskedValue({ kind, value }: PersonalValue): string {
  if (kind === 'email') return maskedEmail(String(value));
  return kind === 'phone' ? maskedPhone(value) : maskedDocument(value);
}

/**
 * The orders module's port for readers who may not see a customer's contact data (see OrderPersonalDataView): the
 * documents are read with the same lists and rule as a lookup or an erasure, and each contact value found there is
 * also replaced wherever else the order holds it as text.
 */
@Injectable()
export class PersonalDataMasking implements OrderPersonalDataView {
  constructor(private readonly keys: PersonalDataKeys) {}

  shown<T>(order: T, view: Exclude<PersonalDataView, 'full'>): T {
    if (!isPlainObject(order)) return order;
    const reader = this.keys.reader;
    const found: PersonalValue[] = [];
    const replace = (value: PersonalValue): unknown => {
      if (!CONTACT_KINDS.has(value.kind)) return value.value;
      found.push(value);
      return view === 'hidden' ? undefined : maskedValue(value);
    };
    const documents = { payload: reader.mapped(order.payload, replace), enrichedPayload: reader.mapped(order.enrichedPayload, replace) };
    const texts = new Map<string, string>();
    for (const value of found) {
      const text = String(value.value);
      if (text.length >= MIN_TEXT_VALUE_LENGTH) texts.set(text, view === 'hidden' ? HIDDEN_MARKER : maskedValue(value));
    }
    const ordered = [...texts.keys()].sort((a, b) => b.length - a.length);
    const scrub = (value: unknown): unknown => {
      if (typeof value === 'string') return ordered.reduce((text, original) => text.split(original).join(texts.get(original)!), value);
      if (Array.isArray(value)) return value.map(scrub);
      if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, scrub(entry)]));
      return value;
    };
    return Object.fromEntries(
      Object.entries(order).map(([key, entry]) => [key, key in documents ? documents[key as keyof typeof documents] : scrub(entry)]),
    ) as T;
  }
}
