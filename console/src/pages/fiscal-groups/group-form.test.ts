import { describe, expect, it } from 'vitest';
import { groupBody, groupFormValues, groupSchema } from './group-form';
import type { FiscalGroup } from './matrix-model';

const message = (key: string, values?: { max: number }) => (values ? `${key}:${values.max}` : key);

describe('the fiscal group form', () => {
  it('starts a new group with the store of the link, and an existing one with its fields', () => {
    expect(groupFormValues(undefined, 'loja-1').stores.map((s) => s.store_id)).toEqual(['loja-1']);
    expect(groupFormValues(undefined, null).stores).toEqual([]);
    const group = {
      id: 'g',
      name: 'G',
      uf: 'SP',
      externalId: null,
      taxRegime: 'MEI',
      stores: [{ store_id: 's1', store_name: 'One' }],
      taxMatrix: {},
      settings: { includeIcmsInPisCofinsBase: true },
    } as unknown as FiscalGroup;
    expect(groupFormValues(group, 'ignored')).toMatchObject({ name: 'G', externalId: '', taxRegime: 'MEI', includeIcms: true });
  });

  it('sends trimmed values and leaves the empty optional fields out', () => {
    const values = { ...groupFormValues(undefined, ' s1 '), name: ' G ', uf: 'RJ', externalId: '  ', taxRegime: ' 4 ' };
    expect(groupBody(values)).toEqual({
      name: 'G',
      uf: 'RJ',
      taxRegime: '4',
      stores: [{ store_id: 's1', store_name: '' }],
      taxMatrix: {},
      settings: {
        includeIcmsInPisCofinsBase: false,
        platformDiscountsReduceBase: false,
        deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
        serviceChargeInIcmsBase: false,
      },
    });
  });

  it('starts a new group, and a stored group without them, with every setting at its default', () => {
    const defaults = {
      includeIcms: false,
      platformDiscountsReduceBase: false,
      deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
      serviceChargeInIcmsBase: false,
    };
    expect(groupFormValues(undefined, null)).toMatchObject(defaults);
    const stored = { id: 'g', name: 'G', uf: 'SP', stores: [], taxMatrix: {}, settings: {} } as unknown as FiscalGroup;
    expect(groupFormValues(stored, null)).toMatchObject(defaults);
  });

  it.each([
    ['platformDiscountsReduceBase', { platformDiscountsReduceBase: true }],
    ['deliveryFeeOnInvoice ALWAYS', { deliveryFeeOnInvoice: 'ALWAYS' }],
    ['deliveryFeeOnInvoice NEVER', { deliveryFeeOnInvoice: 'NEVER' }],
    ['serviceChargeInIcmsBase', { serviceChargeInIcmsBase: true }],
  ] as const)('reads %s from the stored group and sends it back unchanged', (_label, setting) => {
    const settings = {
      includeIcmsInPisCofinsBase: true,
      platformDiscountsReduceBase: false,
      deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
      serviceChargeInIcmsBase: false,
      ...setting,
    } as const;
    const stored = { id: 'g', name: 'G', uf: 'SP', stores: [], taxMatrix: {}, settings } as unknown as FiscalGroup;
    const values = groupFormValues(stored, null);
    expect(values).toMatchObject({ includeIcms: true, ...setting });
    expect(groupBody(values).settings).toEqual(settings);
  });

  it('refuses before sending only what is certainly wrong: blanks, no state, a regime over 50 characters', () => {
    const schema = groupSchema(message);
    const values = { ...groupFormValues(undefined, '  '), name: ' ', uf: '', taxRegime: 'x'.repeat(51) };
    const result = schema.safeParse(values);
    expect(result.success).toBe(false);
    const problems = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
    expect(problems).toEqual({ name: 'required', uf: 'chooseUf', taxRegime: 'tooLong:50', 'stores.0.store_id': 'required' });
    expect(schema.safeParse({ ...values, name: 'G', uf: 'SP', taxRegime: 'ANY TEXT', stores: [] }).success).toBe(true);
  });
});
