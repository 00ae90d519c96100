/**
 * Which parts of a stored order are a person's data, per intake shape. Paths are dotted, `*` standing for any array
 * index or object key; a path names a value or an object whose every value is personal. Each list is the shape as it
 * arrives: a stored order keeps a marketplace's document under `sourceOrder`, so every list is also read there.
 *
 * What the lists miss, `isPersonalByRule` catches (see docs/personal-data.md, "Which data is personal").
 */

/** One intake shape's list; a marketplace profile declares its own (`personalDataFields`), read through `INTAKE_SHAPE_PERSONAL_FIELDS`. */
export interface PersonalDataFieldList {
  /** The shape: `standard` (the platform's payload), `new-order-webhook`, or a profile name (`ifood`, `rappi`...). */
  shape: string;
  fields: readonly string[];
}

/** The platform's own payload (`POST /enrich-order`): its customer and delivery address. */
export const STANDARD_PERSONAL_DATA_FIELDS: readonly string[] = [
  'customer.id',
  'customer.name',
  'customer.email',
  'customer.phone',
  'customer.phone.*',
  'customer.documentNumber',
  'customer.document',
  'customer.cpf',
  'customer.taxId',
  'delivery.address',
  'delivery.deliveryAddress',
  'delivery.observations',
];

/** The platform's new-order webhook body (`customer` is the only personal part it documents). */
export const NEW_ORDER_WEBHOOK_PERSONAL_DATA_FIELDS: readonly string[] = [
  'customer.id',
  'customer.name',
  'customer.email',
  'customer.phone',
];

/**
 * The shapes the personal-data module knows itself. Each marketplace profile (iFood, Rappi, 99Food, Open Delivery...)
 * declares its own list beside its mapper, and the module reads them through `INTAKE_SHAPE_PERSONAL_FIELDS`: the lists
 * in force are these and the profiles' (`PersonalDataKeys.fieldLists`).
 */
export const BUILT_IN_PERSONAL_DATA_FIELD_LISTS: readonly PersonalDataFieldList[] = [
  { shape: 'standard', fields: STANDARD_PERSONAL_DATA_FIELDS },
  { shape: 'new-order-webhook', fields: NEW_ORDER_WEBHOOK_PERSONAL_DATA_FIELDS },
];

/** Objects whose every text value is a person's: what a list misses under them is personal still. */
const PERSONAL_OBJECTS = new Set([
  'customer',
  'client',
  'consumer',
  'buyer',
  'recipient',
  'deliveryaddress',
  'shippingaddress',
  'billingaddress',
  'billinginformation',
  'deliveryinformation',
  'receiveaddress',
]);

/** Objects of the business, never of a person: a store's phone or address is not personal data. */
const BUSINESS_OBJECTS = new Set(['store', 'merchant', 'shop', 'restaurant', 'seller', 'vendor', 'vendors', 'taxsummary']);

/** Keys (lower-case, without `_` or `-`) that name a person's data wherever they appear. */
const PERSONAL_KEYS = new Set([
  // e-mail
  'email',
  'emailaddress',
  'mail',
  // phone
  'phone',
  'phonenumber',
  'telephone',
  'telefone',
  'mobile',
  'mobilephone',
  'cellphone',
  'celular',
  // CPF / CNPJ
  'document',
  'documentnumber',
  'taxid',
  'cpf',
  'cnpj',
  'cpfcnpj',
  'documento',
  // a person's name
  'firstname',
  'lastname',
  'fullname',
  'surname',
  'givenname',
  'familyname',
  'nome',
  // address lines
  'address',
  'addressline',
  'addressline1',
  'addressline2',
  'streetname',
  'streetnumber',
  'street',
  'formattedaddress',
  'completeaddress',
  'poiaddress',
  'poidisplayname',
  'housenumber',
  'complement',
  'neighborhood',
  'neighbourhood',
  'reference',
  'endereco',
  'logradouro',
  'bairro',
  // postal code
  'postalcode',
  'zipcode',
  'zip',
  'postcode',
  'cep',
  // geolocation
  'latitude',
  'longitude',
  'lat',
  'lng',
  'lon',
  'poilat',
  'poilng',
  'coordinates',
  'geolocation',
  'location',
]);

/** A person-like prefix glued to one of the keys above (`customerEmail`, `buyer_phone`, `recipientName`). A marketplace's `receiverDocument` is the business that takes a fee, not a person. */
const PERSON_PREFIXES = ['customer', 'client', 'consumer', 'buyer', 'recipient', 'user'];
const PREFIXED_KEYS = new Set([...PERSONAL_KEYS, 'name', 'id']);

const ID_KEYS = new Set(['id', 'uid', 'userid']);

/** Normalised keys already seen: an order's few dozen keys are normalised at every value under them. */
const normalisedKeys = new Map<string, string>();
/** Bounds of the memo: what a client sends cannot grow it without end. */
const MEMO_KEYS = 2048;
const MEMO_KEY_LENGTH = 64;

export function normalisedKey(key: string): string {
  let normalised = normalisedKeys.get(key);
  if (normalised !== undefined) return normalised;
  normalised = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (key.length <= MEMO_KEY_LENGTH && normalisedKeys.size < MEMO_KEYS) normalisedKeys.set(key, normalised);
  return normalised;
}

function isPersonalKey(key: string): boolean {
  const normalised = normalisedKey(key);
  if (PERSONAL_KEYS.has(normalised)) return true;
  const prefix = PERSON_PREFIXES.find((candidate) => normalised.startsWith(candidate) && normalised.length > candidate.length);
  return prefix !== undefined && PREFIXED_KEYS.has(normalised.slice(prefix.length));
}

/**
 * The rule for what the lists miss: a text value anywhere under a person's object, or any value whose own key (or the
 * key of an object it is in) names an e-mail, a phone, a CPF/CNPJ, a person's name, an address line, a postal code or a
 * geolocation. Nothing under a business object (the store, the merchant) counts.
 *
 * `keys` are the object keys from the root to the value (array indexes left out).
 */
export function isPersonalByRule(keys: readonly string[], value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  if (typeof value === 'string' && value.trim() === '') return false;
  let personalObject = false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index];
    const normalised = normalisedKey(key);
    if (BUSINESS_OBJECTS.has(normalised)) return false;
    const last = index === keys.length - 1;
    if (!last && PERSONAL_OBJECTS.has(normalised)) personalObject = true;
    if (isPersonalKey(key)) return true;
  }
  if (!personalObject) return false;
  // A count or an amount under the customer is not the person; their ids are.
  return typeof value === 'string' || ID_KEYS.has(normalisedKey(keys[keys.length - 1] ?? ''));
}
