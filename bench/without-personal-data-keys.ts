/**
 * Loaded with `node --import` by bench:personal-data into the service it measures "without the hashes": intake then
 * neither reads the payload for e-mails, phones and CPF/CNPJ nor computes their keyed hashes, and stores the order with
 * no lookup key (an empty list). That service runs on a copy of the database without `ix_orders_personal_data_keys`,
 * so it pays nothing for the hashes in the database either. Bench only: the service itself has no such switch.
 */
import { PersonalDataKeys } from '../src/personal-data/personal-data-keys.js';

PersonalDataKeys.prototype.keysTextOf = () => '';
