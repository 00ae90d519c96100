import { ApiError } from '../common/errors/api-error.js';
import type { PersonalDataSubjectQuery } from './dto/personal-data.dto.js';
import { isValidDocument, normalisedDocument, normalisedPhone, type PersonalKeyKind } from './personal-data-keys.js';

const KINDS: readonly PersonalKeyKind[] = ['email', 'phone', 'document'];

/** Who a request is about: the one key given, checked and normalised. */
export interface PersonalDataSubject {
  kind: PersonalKeyKind;
  value: string;
}

/**
 * Exactly one of `email`, `phone`, `document`; a phone of fewer than 8 digits or a CPF/CNPJ whose check digits do not
 * hold is a 400 naming the field. No message repeats the value (personal data never reaches an error message).
 */
export function subjectOf(query: PersonalDataSubjectQuery): PersonalDataSubject {
  const given = KINDS.filter((kind) => query[kind] !== undefined);
  if (given.length === 0) throw ApiError.badRequest('Give exactly one of email, phone or document', 'email');
  if (given.length > 1) throw ApiError.badRequest(`Give exactly one of email, phone or document, not ${given.join(' and ')}`, given[1]);
  const kind = given[0]!;
  const value = query[kind]!;
  if (kind === 'phone' && normalisedPhone(value).length < 8) throw ApiError.badRequest('must have at least 8 digits', 'phone');
  if (kind === 'document' && !isValidDocument(normalisedDocument(value))) {
    throw ApiError.badRequest('is not a CPF (11 digits) or CNPJ (14 digits) with valid check digits', 'document');
  }
  return { kind, value };
}
