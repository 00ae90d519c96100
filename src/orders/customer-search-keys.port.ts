/**
 * The port through which the order list's search box finds a customer's orders: the personal-data lookup keys
 * (keyed hashes, docs/personal-data.md) of the e-mail, phone or CPF/CNPJ the text may be. Bound by
 * `PersonalDataPortsModule` (`src/personal-data/`), which owns the keys (this module cannot import it: it imports this
 * one). See "Ports" in docs/adding-a-module.md.
 */
export interface CustomerSearchKeys {
  /** The lookup keys the text stands for (none when it is neither an e-mail, nor a phone, nor a CPF/CNPJ). */
  keysFor(text: string): string[];
}

export const CUSTOMER_SEARCH_KEYS = Symbol('CustomerSearchKeys');
