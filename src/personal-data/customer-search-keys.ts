import { Injectable } from '@nestjs/common';
import type { CustomerSearchKeys } from '../orders/customer-search-keys.port.js';
import { isValidDocument, normalisedDocument, normalisedPhone, PersonalDataKeys } from './personal-data-keys.js';

/** A phone or document typed as people write them: digits with spaces, `+`, `(`, `)`, `.`, `-` or `/`. */
const DIGITS_AS_WRITTEN = /^[\d\s+().\-/]+$/;

/**
 * What the order list's search box may be when it is a customer: an e-mail (it has an `@`), a phone (8 digits or more)
 * and, when its check digits hold, a CPF or CNPJ. Each is the lookup key the order statements store, so the search is
 * an index lookup (`ix_orders_personal_data_keys`), never a scan of the payloads.
 */
@Injectable()
export class PersonalDataCustomerSearchKeys implements CustomerSearchKeys {
  constructor(private readonly keys: PersonalDataKeys) {}

  keysFor(text: string): string[] {
    const value = text.trim();
    if (value.includes('@')) return [this.keys.keyOf('email', value)];
    if (!DIGITS_AS_WRITTEN.test(value)) return [];
    const found: string[] = [];
    if (normalisedPhone(value).length >= 8) found.push(this.keys.keyOf('phone', value));
    if (isValidDocument(normalisedDocument(value))) found.push(this.keys.keyOf('document', value));
    return found;
  }
}
