import { z } from 'zod';
import { matrixFromRows, rowsFromMatrix, UF_CODES, type FiscalGroup, type MatrixRow } from './matrix-model';

// The default CFOP is kept as stored: the form leaves it out, and a partial update keeps it.
type GroupSettings = Required<Omit<FiscalGroup['settings'], 'defaultCfop'>>;
export type DeliveryFeeOnInvoice = GroupSettings['deliveryFeeOnInvoice'];

/** The choices of `settings.deliveryFeeOnInvoice`, the default first. */
export const DELIVERY_FEE_ON_INVOICE: readonly DeliveryFeeOnInvoice[] = ['WHEN_MERCHANT_DELIVERS', 'ALWAYS', 'NEVER'];

/** One store of the group as edited; `uid` keys the row while its id is being typed. */
export interface StoreRow {
  uid: string;
  store_id: string;
  store_name: string;
}

/** The group editor's values: the group's fields as typed, the stores and the matrix rows. */
export interface GroupFormValues {
  name: string;
  externalId: string;
  uf: string;
  taxRegime: string;
  includeIcms: boolean;
  platformDiscountsReduceBase: boolean;
  deliveryFeeOnInvoice: DeliveryFeeOnInvoice;
  serviceChargeInIcmsBase: boolean;
  defaultCfop: string;
  stores: StoreRow[];
  rows: MatrixRow[];
}

let storeCounter = 0;
export const storeUid = () => `s${++storeCounter}`;
export const emptyStore = (storeId = ''): StoreRow => ({ uid: storeUid(), store_id: storeId, store_name: '' });

/** The form's first values: the group as stored, or a new group holding the store of the link (if any). */
export function groupFormValues(group: FiscalGroup | undefined, storeId: string | null, decimalSeparator = '.'): GroupFormValues {
  return {
    name: group?.name ?? '',
    externalId: group?.externalId ?? '',
    uf: group?.uf ?? '',
    taxRegime: group?.taxRegime ?? '',
    includeIcms: group?.settings?.includeIcmsInPisCofinsBase === true,
    platformDiscountsReduceBase: group?.settings?.platformDiscountsReduceBase === true,
    deliveryFeeOnInvoice: group?.settings?.deliveryFeeOnInvoice ?? 'WHEN_MERCHANT_DELIVERS',
    serviceChargeInIcmsBase: group?.settings?.serviceChargeInIcmsBase === true,
    defaultCfop: group?.settings?.defaultCfop ?? '',
    stores: group ? group.stores.map((store) => ({ uid: storeUid(), ...store })) : storeId ? [emptyStore(storeId)] : [],
    rows: rowsFromMatrix(group?.taxMatrix, decimalSeparator),
  };
}

/** The request body of `POST`/`PUT /api/admin/fiscal-groups`: blanks trimmed, optional fields left out when empty. */
export function groupBody(values: GroupFormValues) {
  return {
    name: values.name.trim(),
    uf: values.uf as (typeof UF_CODES)[number],
    ...(values.externalId.trim() ? { externalId: values.externalId.trim() } : {}),
    ...(values.taxRegime.trim() ? { taxRegime: values.taxRegime.trim() } : {}),
    stores: values.stores.map((store) => ({ store_id: store.store_id.trim(), store_name: store.store_name.trim() })),
    taxMatrix: matrixFromRows(values.rows),
    settings: {
      includeIcmsInPisCofinsBase: values.includeIcms,
      platformDiscountsReduceBase: values.platformDiscountsReduceBase,
      deliveryFeeOnInvoice: values.deliveryFeeOnInvoice,
      serviceChargeInIcmsBase: values.serviceChargeInIcmsBase,
      ...(values.defaultCfop.trim() ? { defaultCfop: values.defaultCfop.trim() } : {}),
    } satisfies FiscalGroup['settings'],
  };
}

/**
 * What the browser checks before sending: only what is certainly wrong (a required field left
 * blank, a regime longer than the API takes). Everything else is the API's to judge; its problems
 * are shown at the same fields. `message` names the i18n key of each problem, so the schema has no
 * language of its own.
 */
export function groupSchema(message: (key: 'required' | 'chooseUf' | 'tooLong', values?: { max: number }) => string) {
  const required = z.string().refine((value) => value.trim() !== '', { message: message('required') });
  return z.object({
    name: required,
    uf: z.string().refine((value) => (UF_CODES as readonly string[]).includes(value), { message: message('chooseUf') }),
    taxRegime: z.string().refine((value) => value.trim().length <= 50, { message: message('tooLong', { max: 50 }) }),
    stores: z.array(z.object({ store_id: required })),
  });
}
