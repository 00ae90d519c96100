import type { Principal } from '../auth/principal.js';

/**
 * How much of a customer's e-mail, phone and CPF/CNPJ a reader of the orders sees: `full` (a machine client with the
 * `admin` scope), `masked` (people with the role `support` or `admin`; an admin reveals a full value through the
 * audited reveal of the personal-data routes) or `hidden` (the role `fiscal`). See "Who sees it" in docs/personal-data.md.
 */
export type PersonalDataView = 'full' | 'masked' | 'hidden';

export function personalDataViewOf(principal: Principal | undefined): PersonalDataView {
  if (principal?.kind !== 'user') return 'full';
  return principal.role === 'fiscal' ? 'hidden' : 'masked';
}

/**
 * Shows an order (a list item or the detail, with `payload` and `enrichedPayload`) to a reader who may not see its
 * customer's contact data: a copy with each e-mail, phone and CPF/CNPJ masked or left out, in the documents and in
 * every other text of the order (a receiver's answer, the delivery log's excerpts). The personal-data module owns the
 * reading of personal data and binds this port (see "Ports" in docs/adding-a-module.md); the orders module cannot import it.
 */
export interface OrderPersonalDataView {
  shown<T>(order: T, view: Exclude<PersonalDataView, 'full'>): T;
}

export const ORDER_PERSONAL_DATA_VIEW = Symbol('OrderPersonalDataView');
