import { readFileSync } from 'node:fs';
import { fiscalGroup, taxMatrixWith } from '../factories/index.js';
import type { TestApp } from './test-app.js';

/** A customer whose every value is unique to the file (so that a search of a log or a table finds only this test's). */
export function testCustomer(tag: string) {
  const seed = [...tag].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 1_000_000, Date.now() % 1_000_000);
  const digits = String(seed).padStart(6, '0');
  return {
    id: `cust-${tag}-${digits}`,
    name: `Ana ${tag} Pereira ${digits}`,
    email: `ana.${tag}.${digits}@example.com.br`,
    phone: `+55 11 9${digits.slice(0, 4)}-${digits.slice(2, 6)}`,
    // A CPF whose check digits hold (a 400 otherwise): 529.982.247-25.
    documentNumber: '529.982.247-25',
    street: `Rua ${tag} ${digits}`,
    postalCode: `01${digits.slice(0, 3)}-${digits.slice(3)}`,
  };
}
export type TestCustomer = ReturnType<typeof testCustomer>;

/** A platform payload of `storeId` with the customer and their delivery address. */
export function platformOrder(orderId: string, storeId: string, customer: TestCustomer) {
  return {
    orderId,
    source: 'site',
    store: { id: storeId, name: 'Loja Paulista' },
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email.toUpperCase(),
      phone: customer.phone,
      documentNumber: customer.documentNumber,
    },
    delivery: {
      deliveredBy: 'MERCHANT',
      address: {
        streetName: customer.street,
        streetNumber: '100',
        postalCode: customer.postalCode,
        coordinates: { latitude: -23.5, longitude: -46.6 },
      },
    },
    order: { products: [{ productId: 'pd-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
    payments: [{ method: 'PIX', value: 25.9 }],
  };
}

/** The platform's new-order webhook body for the customer. */
export function newOrderBody(orderId: string, storeId: string, customer: TestCustomer) {
  return {
    order_id: orderId,
    status: 'RECEIVED',
    store: { id: storeId },
    customer: { id: customer.id, name: customer.name, email: customer.email, phone: customer.phone },
    items: [{ product_id: 'pd-burger', quantity: 1, price: 25.9 }],
    total: 25.9,
  };
}

/** iFood's sandbox order of the fixtures, as the customer's, for `storeId`. */
export function ifoodOrder(orderId: string, storeId: string, customer: TestCustomer) {
  const document = JSON.parse(
    readFileSync(new URL('../fixtures/ifood/sandbox-delivery-merchant-small-order-fee.json', import.meta.url), 'utf8'),
  ) as Record<string, any>;
  document.id = orderId;
  document.merchant.id = storeId;
  document.customer.name = customer.name;
  document.customer.documentNumber = customer.documentNumber;
  document.customer.phone.number = customer.phone;
  document.delivery.deliveryAddress.streetName = customer.street;
  document.delivery.deliveryAddress.postalCode = customer.postalCode;
  return document;
}

/** A store with a fiscal group (taxed orders) and the products of `platformOrder`. */
export async function taxedStore(t: TestApp, storeId: string): Promise<void> {
  await fiscalGroup(t.dataSource, { stores: [storeId], taxMatrix: taxMatrixWith(18) });
}

function marketplaceFixture(path: string): Record<string, any> {
  return JSON.parse(readFileSync(new URL(`../fixtures/marketplaces/${path}`, import.meta.url), 'utf8')) as Record<string, any>;
}

/** Rappi's published order (the integration hub's NEW_ORDER), as the customer's, for `storeId`. */
export function rappiOrder(orderId: string, storeId: string, customer: TestCustomer) {
  const document = marketplaceFixture('rappi/orders-integrations-hub-create.json');
  document.order_detail.order_id = orderId;
  document.store.external_id = storeId;
  Object.assign(document.customer, {
    first_name: customer.name,
    phone_number: customer.phone,
    document_number: customer.documentNumber,
    email: customer.email,
  });
  Object.assign(document.order_detail.delivery_information, { complete_address: customer.street, postal_code: customer.postalCode });
  return document;
}

/** 99Food's published order (in its webhook envelope), as the customer's, for `storeId`; 99Food sends no e-mail or CPF. */
export function ninetyNineFoodOrder(orderId: string, storeId: string, customer: TestCustomer) {
  const document = marketplaceFixture('99food/orders-integrations-hub-order-new.json');
  document.data.order_id = orderId;
  document.data.order_info.order_id = orderId;
  document.data.order_info.shop.app_shop_id = storeId;
  document.app_shop_id = storeId;
  Object.assign(document.data.order_info.receive_address, {
    name: customer.name,
    phone: customer.phone,
    poi_address: customer.street,
    postal_code: customer.postalCode,
  });
  return document;
}

/** Open Delivery's order of the standard's specification, as the customer's, for `storeId`. */
export function openDeliveryOrder(orderId: string, storeId: string, customer: TestCustomer) {
  const document = marketplaceFixture('opendelivery/spec-order-example.json');
  document.id = orderId;
  document.merchant.id = storeId;
  Object.assign(document.customer, {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    documentNumber: customer.documentNumber,
    phone: { number: customer.phone, extension: '0' },
  });
  Object.assign(document.delivery.deliveryAddress, {
    streetName: customer.street,
    formattedAddress: customer.street,
    postalCode: customer.postalCode,
  });
  return document;
}
