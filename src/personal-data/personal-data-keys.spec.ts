import type { AppConfig } from '../config/app-config.js';
import { PersonalDataKeys } from './personal-data-keys.js';

describe('PersonalDataKeys reads the lists of the intake shapes it is given', () => {
  const config = { personalDataKey: 'k'.repeat(40) } as AppConfig;

  it('adds each bound shape’s list to the built-in ones', () => {
    const keys = new PersonalDataKeys(config, { lists: [{ shape: 'example', fields: ['order_detail.notes'] }] });
    expect(keys.fieldLists.map((list) => list.shape)).toEqual(['standard', 'new-order-webhook', 'example']);
    // `notes` is no personal key and under no personal object: only the bound list makes it personal.
    expect(keys.reader.valuesOf({ order_detail: { notes: 'ring at apt 12' } })).toEqual([
      { path: 'order_detail.notes', value: 'ring at apt 12', kind: 'other' },
    ]);
    expect(new PersonalDataKeys(config, { lists: [] }).reader.valuesOf({ order_detail: { notes: 'ring at apt 12' } })).toEqual([]);
  });
});
