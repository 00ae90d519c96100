import { settingsOf, sentSettings } from './fiscal-group.mapper.js';

describe("a fiscal group's settings", () => {
  it('are answered with the default of every setting never set', () => {
    const defaults = {
      includeIcmsInPisCofinsBase: false,
      platformDiscountsReduceBase: false,
      deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
      serviceChargeInIcmsBase: false,
    };
    expect(settingsOf({})).toEqual(defaults);
    expect(settingsOf(null)).toEqual(defaults);
    expect(settingsOf({ deliveryFeeOnInvoice: 'NEVER', serviceChargeInIcmsBase: true })).toEqual({
      ...defaults,
      deliveryFeeOnInvoice: 'NEVER',
      serviceChargeInIcmsBase: true,
    });
  });

  it('answer the default CFOP only when it is set: it has no default', () => {
    expect(settingsOf({ defaultCfop: '5102' })).toMatchObject({ defaultCfop: '5102', serviceChargeInIcmsBase: false });
    expect(settingsOf({})).not.toHaveProperty('defaultCfop');
  });

  it('as sent keep only the keys the request carried, so a partial update cannot overwrite a stored setting with undefined', () => {
    // The built service defines class fields: a DTO instance carries every setting not sent as an undefined own key.
    const sent = { includeIcmsInPisCofinsBase: undefined, platformDiscountsReduceBase: false, deliveryFeeOnInvoice: 'ALWAYS' as const };
    expect(sentSettings(sent)).toEqual({ platformDiscountsReduceBase: false, deliveryFeeOnInvoice: 'ALWAYS' });
    expect(Object.keys(sentSettings(sent))).toEqual(['platformDiscountsReduceBase', 'deliveryFeeOnInvoice']);
    const stored = { includeIcmsInPisCofinsBase: true, serviceChargeInIcmsBase: true };
    expect({ ...stored, ...sentSettings(sent) }).toEqual({ ...stored, platformDiscountsReduceBase: false, deliveryFeeOnInvoice: 'ALWAYS' });
    expect(sentSettings(undefined)).toEqual({});
  });
});
