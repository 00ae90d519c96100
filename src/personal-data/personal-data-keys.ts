import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { PersonalDataReader, type PersonalValue } from './personal-values.js';
import { BUILT_IN_PERSONAL_DATA_FIELD_LISTS, type PersonalDataFieldList } from './personal-data-fields.js';
import { INTAKE_SHAPE_PERSONAL_FIELDS, type IntakeShapePersonalFields } from './intake-shape-personal-fields.port.js';

/** What a person is looked up by. */
export type PersonalKeyKind = 'email' | 'phone' | 'document';

/** Lower-case, without surrounding spaces. */
export function normalisedEmail(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Digits only; a Brazilian number written with its country code (`+55 11 98765-4321`, 12 or 13 digits) is the same
 * phone as without it (`11 98765-4321`), so the code is dropped.
 */
export function normalisedPhone(value: string | number): string {
  const digits = String(value).replace(/\D/g, '');
  return (digits.length === 12 || digits.length === 13) && digits.startsWith('55') ? digits.slice(2) : digits;
}

/** Digits only. */
export function normalisedDocument(value: string | number): string {
  return String(value).replace(/\D/g, '');
}

/** Whether `digits` is a CPF (11) or CNPJ (14) whose check digits hold. */
export function isValidDocument(digits: string): boolean {
  return (digits.length === 11 && isValidCpf(digits)) || (digits.length === 14 && isValidCnpj(digits));
}

function normalised(kind: PersonalKeyKind, value: string | number): string {
  if (kind === 'email') return normalisedEmail(String(value));
  return kind === 'phone' ? normalisedPhone(value) : normalisedDocument(value);
}

/**
 * Keyed hashes (HMAC-SHA256 with `PERSONAL_DATA_KEY`, 128 bits kept) of the e-mails, phones and CPF/CNPJ an order holds,
 * stored beside it so that a person's orders are found through an index, never by reading every payload. The kind is
 * part of what is hashed: a phone and a document made of the same digits are different keys.
 */
@Injectable()
export class PersonalDataKeys {
  /** The lists in force: the built-in shapes' and each marketplace profile's (the lookup's answer shows them). */
  readonly fieldLists: readonly PersonalDataFieldList[];
  readonly reader: PersonalDataReader;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INTAKE_SHAPE_PERSONAL_FIELDS) shapes: IntakeShapePersonalFields,
  ) {
    this.fieldLists = [...BUILT_IN_PERSONAL_DATA_FIELD_LISTS, ...shapes.lists];
    this.reader = new PersonalDataReader(this.fieldLists);
  }

  keyOf(kind: PersonalKeyKind, value: string | number): string {
    return createHmac('sha256', this.config.personalDataKey)
      .update(`${kind}:${normalised(kind, value)}`)
      .digest('hex')
      .slice(0, 32);
  }

  /** The lookup keys of every personal value in `document`, each once (empty values have none). */
  keysOf(document: unknown): string[] {
    return this.keysOfValues(this.reader.valuesOf(document));
  }

  keysOfValues(values: readonly PersonalValue[]): string[] {
    const keys = new Set<string>();
    for (const { kind, value } of values) {
      if (kind === 'other' || normalised(kind, value) === '') continue;
      keys.add(this.keyOf(kind, value));
    }
    return [...keys];
  }

  /** The keys as the order statements take them: one text, space-separated (no key holds a space). */
  keysTextOf(document: unknown): string {
    return this.keysOf(document).join(' ');
  }
}
