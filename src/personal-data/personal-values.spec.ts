import { readFileSync } from 'node:fs';
import { PersonalDataReader } from './personal-values.js';
import { BUILT_IN_PERSONAL_DATA_FIELD_LISTS } from './personal-data-fields.js';
import { REGISTERED_PROFILES } from '../enrichment/marketplaces/registered-profiles.js';

/** The lists in force in the service: the built-in shapes and every registered marketplace profile's. */
const FIELD_LISTS = [
  ...BUILT_IN_PERSONAL_DATA_FIELD_LISTS,
  ...REGISTERED_PROFILES.map((profile) => ({ shape: profile.name, fields: profile.personalDataFields })),
];

const fixture = (path: string): unknown => JSON.parse(readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url), 'utf8'));

/** The new-order webhook's documented example (the platform's body). */
const NEW_ORDER_BODY = {
  order_id: 'PLT-2025-000777',
  status: 'RECEIVED',
  customer: { id: 'CUST-5521', name: 'Ana Souza', email: 'ana.souza@example.com.br' },
  items: [{ product_id: 'burger-01', quantity: 2, price: 25.9 }],
  total: 51.8,
};

/**
 * Every real document the service takes, with the customer's values in it, listed by hand from the file. Each must be
 * found; none of the fiscal record (items, prices) may be.
 */
const SAMPLES: Array<{ name: string; document: unknown; customer: Array<string | number>; notPersonal: Array<string | number> }> = [
  {
    name: 'platform payload (engine-corpus/benchmark-order.json)',
    document: fixture('engine-corpus/benchmark-order.json'),
    customer: [
      'c-98127',
      'Ana Beatriz de Souza',
      'ana.souza@example.com',
      '+55 11 98765-4321',
      '123.456.789-09',
      'Avenida Paulista',
      '1578',
      'Apto 142, bloco B',
      'Bela Vista',
      '01310-200',
      -23.561414,
      -46.655881,
    ],
    notPersonal: ['Demo Burger House - Paulista', 'Classic burger', 'demo-burger'],
  },
  {
    name: 'new-order webhook',
    document: NEW_ORDER_BODY,
    customer: ['CUST-5521', 'Ana Souza', 'ana.souza@example.com.br'],
    notPersonal: ['burger-01', 'PLT-2025-000777'],
  },
  ...['sandbox-delivery-merchant-small-order-fee', 'sandbox-delivery-merchant-five-items-multi-options'].map((file) => ({
    name: `iFood ${file}`,
    document: fixture(`ifood/${file}.json`),
    customer: [
      '00000000-0000-0000-0000-000000000000',
      'PEDIDO DE TESTE - REDACTED CUSTOMER',
      '00000000000',
      '0800 000 0000',
      'PEDIDO DE TESTE - NÃO ENTREGAR - Ramal Bujari',
      'PEDIDO DE TESTE - NÃO ENTREGAR - Ramal Bujari, 122',
      '122',
      'Bujari',
      '00000000',
      -9.822384,
      -67.948589,
    ],
    notPersonal: ['Teste - Admin Sweet Confetty', 'VISA'],
  })),
  {
    name: 'Rappi docs-get-orders-example.json',
    document: fixture('marketplaces/rappi/docs-get-orders-example.json'),
    customer: [
      'Nombre de la calle 5050. Barrio. 12345. Ciudad De México',
      '5050',
      'Barrio',
      'Portón verde',
      '12345',
      'Nombre de la calle',
      '148  Davis Court',
      '32432342',
      'client@gmail.com',
      'John Doe',
      '43333222',
      'John',
      'Doe',
      '3163535',
      '34545678',
    ],
    notPersonal: ['Chicken and Apple Salad', 'Store 1', 'Envío gratis'],
  },
  {
    name: '99Food docs-order-webhook-example.json',
    document: fixture('marketplaces/99food/docs-order-webhook-example.json'),
    customer: [
      299070223744111,
      '+81',
      '00016004812',
      'R. Congonhas, 405 - Santo Ant\\u00f4nio, Belo Horizonte - MG, 30330-100, Brasil',
      -19.9440597,
      -43.9392454,
      'R. Congonhas, 405',
    ],
    // The store's own address and phone are the business's, not a person's.
    notPersonal: ['allinone_BR_haojing_zipeisong', 12345678902, 'King Jr. Hamburguesa de Pollo'],
  },
  {
    name: 'Open Delivery spec-order-example.json',
    document: fixture('marketplaces/opendelivery/spec-order-example.json'),
    customer: ['d9730653-a8ba-4e85-8dbb-b5697e6ae8d5', '11999999999', '12345', 'John', 'Gomes de Carvalho Street', '100', '20111-000'],
    notPersonal: ['Plaza Pizza', 'Medium - 2 flavors', '1234'],
  },
];

describe('personal data of every intake shape', () => {
  const reader = new PersonalDataReader(FIELD_LISTS);

  it.each(SAMPLES)('finds every customer value of $name and none of the order', ({ document, customer, notPersonal }) => {
    const found = reader.valuesOf(document).map((value) => value.value);
    expect(customer.filter((value) => !found.includes(value))).toEqual([]);
    expect(notPersonal.filter((value) => found.includes(value))).toEqual([]);
  });

  it('finds the same values in a marketplace document kept under sourceOrder', () => {
    const document = fixture('ifood/sandbox-delivery-merchant-small-order-fee.json');
    const atRoot = reader.valuesOf(document).map(({ path, value }) => ({ path: `sourceOrder.${path}`, value }));
    const kept = reader
      .valuesOf({ orderId: 'x', order: { products: [] }, sourceOrder: document })
      .map(({ path, value }) => ({ path, value }));
    expect(kept).toEqual(atRoot);
  });

  it('never reads the tax summary as personal', () => {
    expect(reader.valuesOf({ taxSummary: { lines: [{ name: 'Ana', address: 'x', cpf: '12345678909' }] } })).toEqual([]);
  });

  it('tells an e-mail, a phone and a document apart for lookups', () => {
    const kinds = Object.fromEntries(
      reader.valuesOf(fixture('engine-corpus/benchmark-order.json')).map((value) => [value.path, value.kind]),
    );
    expect(kinds).toMatchObject({
      'customer.email': 'email',
      'customer.phone': 'phone',
      'customer.documentNumber': 'document',
      'customer.name': 'other',
      'delivery.address.postalCode': 'other',
    });
    expect(reader.valuesOf({ customer: { phone: { number: '11 99999-0000' } } })[0]).toMatchObject({ kind: 'phone' });
  });

  it('reads a list added by a marketplace profile', () => {
    const reader = new PersonalDataReader([...FIELD_LISTS, { shape: 'example', fields: ['order_detail.notes'] }]);
    expect(reader.valuesOf({ order_detail: { notes: 'ring at apt 12' } })).toEqual([
      { path: 'order_detail.notes', value: 'ring at apt 12', kind: 'other' },
    ]);
  });
});
