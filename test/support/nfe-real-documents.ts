import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { create } from 'xmlbuilder2';
import type { NewGroup } from './fiscal-groups.js';

/**
 * Real authorized NF-e/NFC-e documents (test/fixtures/nfe-real/, sources in its README) read into what the service
 * needs to print the same items: a fiscal group whose rules are the documents' CST/CSOSN, rates and CFOP per NCM,
 * product categories with each item's NCM, and an order with each item's price and quantity and the document's
 * discounts, freight and other charges at order level, for the service to split again.
 */

const FIXTURES = new URL('../fixtures/nfe-real/', import.meta.url);

/** An element as xmlbuilder2 reads it: text, or an object of children (`@name` for attributes), a list when repeated. */
type Node = string | { [name: string]: Node | Node[] };
type Group = Record<string, string>;

export interface RealItem {
  nItem: number;
  prod: Group;
  /** The ICMS group's name (`ICMS00`, `ICMSSN500`...) and its fields. */
  icms: { name: string; fields: Group };
  pis: { name: string; fields: Group };
  cofins: { name: string; fields: Group };
}

export interface RealDocument {
  file: string;
  /** The access key (chNFe) its protocol authorizes. */
  key: string;
  /** cStat of its protocol (100: authorized). */
  status: string;
  model: '55' | '65';
  crt: string;
  uf: string;
  items: RealItem[];
  totals: Group;
}

function child(node: Node | undefined, name: string): Node | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  const value = node[name];
  return Array.isArray(value) ? value[0] : value;
}

function children(node: Node | undefined, name: string): Node[] {
  if (node === undefined || typeof node === 'string') return [];
  const value = node[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function text(node: Node | undefined, name: string): string {
  const value = child(node, name);
  if (typeof value !== 'string') throw new Error(`no text element ${name}`);
  return value;
}

/** The text children of an element (its sub-groups and attributes left out). */
function fields(node: Node | undefined): Group {
  const group: Group = {};
  if (node === undefined || typeof node === 'string') return group;
  for (const [name, value] of Object.entries(node)) if (typeof value === 'string' && !name.startsWith('@')) group[name] = value;
  return group;
}

/** The single group inside a tax element (`<ICMS><ICMS00>...</ICMS00></ICMS>`). */
function onlyGroup(node: Node | undefined, tax: string): { name: string; fields: Group } {
  if (node === undefined || typeof node === 'string') throw new Error(`no ${tax} element`);
  const names = Object.keys(node).filter((name) => !name.startsWith('@'));
  if (names.length !== 1) throw new Error(`${tax} holds ${names.length} groups`);
  return { name: names[0]!, fields: fields(child(node, names[0]!)) };
}

export function readRealDocument(file: string): RealDocument {
  const root = create(readFileSync(new URL(file, FIXTURES), 'utf8')).end({ format: 'object' }) as unknown as Node;
  const proc = child(root, 'nfeProc');
  const infNFe = child(child(proc, 'NFe'), 'infNFe');
  const infProt = child(child(proc, 'protNFe'), 'infProt');
  const ide = child(infNFe, 'ide');
  const emit = child(infNFe, 'emit');
  const model = text(ide, 'mod');
  if (model !== '55' && model !== '65') throw new Error(`${file}: model ${model} is no NF-e or NFC-e`);
  const items = children(infNFe, 'det').map((det): RealItem => {
    const imposto = child(det, 'imposto');
    return {
      nItem: Number((det as Record<string, Node>)['@nItem']),
      prod: fields(child(det, 'prod')),
      icms: onlyGroup(child(imposto, 'ICMS'), 'ICMS'),
      pis: onlyGroup(child(imposto, 'PIS'), 'PIS'),
      cofins: onlyGroup(child(imposto, 'COFINS'), 'COFINS'),
    };
  });
  return {
    file,
    key: text(infProt, 'chNFe'),
    status: text(infProt, 'cStat'),
    model,
    crt: text(emit, 'CRT'),
    uf: text(child(emit, 'enderEmit'), 'UF'),
    items,
    totals: fields(child(child(infNFe, 'total'), 'ICMSTot')),
  };
}

/** A decimal figure of a document (absent: 0), exact. */
export function figure(value: string | undefined): Decimal {
  return new Decimal(value ?? '0');
}

const cents = (value: string | undefined) => figure(value).times(100).toNumber();

/** The code of an item's ICMS situation as a rule carries it: orig + CST in the normal regime, the CSOSN in Simples. */
function icmsCodeOf(item: RealItem): string {
  const { CST, CSOSN, orig } = item.icms.fields;
  if (CSOSN !== undefined) {
    // A 3-digit CST_ICMS of a Simples group is its CSOSN; the origin then prints 0.
    if (orig !== undefined && orig !== '0') throw new Error(`item ${item.nItem}: a Simples item of origin ${orig} needs the rule's orig`);
    return CSOSN;
  }
  if (CST === undefined) throw new Error(`item ${item.nItem}: ${item.icms.name} has neither CST nor CSOSN`);
  return `${orig ?? '0'}${CST}`;
}

/** The document's rule for one item, keyed by its NCM. */
function ruleOf(item: RealItem): Record<string, unknown> {
  const icms = item.icms.fields;
  const rule: Record<string, unknown> = {
    NCM: item.prod.NCM,
    CEST: item.prod.CEST ?? '',
    CST_ICMS: icmsCodeOf(item),
    ICMS_rate: figure(icms.pICMS).toNumber(),
    CST_PIS: item.pis.fields.CST,
    PIS_rate: figure(item.pis.fields.pPIS).toNumber(),
    CST_COFINS: item.cofins.fields.CST,
    COFINS_rate: figure(item.cofins.fields.pCOFINS).toNumber(),
    CFOP: item.prod.CFOP,
  };
  if (icms.pRedBC !== undefined) rule.ICMS_base_reduction = figure(icms.pRedBC).toNumber();
  if (icms.pFCP !== undefined) rule.FCP_rate = figure(icms.pFCP).toNumber();
  return rule;
}

/** The regime's ICMS on an item as the document charged it (0 where it charged none). */
const icmsValueOf = (item: RealItem) => figure(item.icms.fields.vICMS);

/** The item's net amount: vProd − vDesc + vFrete + vOutro. */
export function netOf(item: RealItem): Decimal {
  const { vProd, vDesc, vFrete, vOutro } = item.prod;
  return figure(vProd).minus(figure(vDesc)).plus(figure(vFrete)).plus(figure(vOutro));
}

/**
 * Whether the document's PIS/COFINS bases keep the ICMS in (the group's `includeIcmsInPisCofinsBase`): true when no
 * charged PIS base is the item's net amount less its ICMS, the base the service takes by default.
 */
function keepsIcmsInPisCofinsBase(document: RealDocument): boolean {
  const charged = document.items.filter((item) => item.pis.name === 'PISAliq' && figure(item.pis.fields.vBC).gt(0));
  return charged.length > 0 && !charged.some((item) => figure(item.pis.fields.vBC).eq(netOf(item).minus(icmsValueOf(item))));
}

/** An order-level share of the document: the sum it is split from, and each item's share in cents. */
export interface DocumentShare {
  field: 'vDesc' | 'vFrete' | 'vOutro' | 'vSeg';
  total: string;
  /** Whether the service's rule (in proportion to vProd, half-up to the cent, the last item takes the rest) gives the document's shares. */
  splitAsTheService: boolean;
}

/** Shares of `amount` cents over the items' vProd as the service splits an order-level amount. */
export function serviceSplit(amountCents: number, vProdCents: number[]): number[] {
  const taxable = vProdCents.map((value, index) => (value > 0 ? index : -1)).filter((index) => index >= 0);
  const total = taxable.reduce((sum, index) => sum + vProdCents[index]!, 0);
  const shares = vProdCents.map(() => 0);
  let given = 0;
  taxable.forEach((index, position) => {
    const share =
      position === taxable.length - 1
        ? amountCents - given
        : new Decimal(amountCents).times(vProdCents[index]!).div(total).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    shares[index] = share;
    given += share;
  });
  return shares;
}

function shareOf(document: RealDocument, field: DocumentShare['field']): DocumentShare | undefined {
  const perItem = document.items.map((item) => cents(item.prod[field]));
  const totalCents = perItem.reduce((sum, value) => sum + value, 0);
  if (totalCents === 0) return undefined;
  const split = serviceSplit(
    totalCents,
    document.items.map((item) => cents(item.prod.vProd)),
  );
  return {
    field,
    total: new Decimal(totalCents).div(100).toFixed(2),
    splitAsTheService: split.every((share, index) => share === perItem[index]),
  };
}

export interface ServiceSetup {
  group: NewGroup;
  categories: Array<{ productId: string; productName: string; ncm: string }>;
  order: Record<string, unknown>;
  /** The document's order-level amounts, and whether the service splits each as the document did. */
  shares: DocumentShare[];
  /** The product id the order sends for each item (cProd prefixed, unique across the documents of a test file). */
  productIds: string[];
}

/**
 * The fiscal group, categories and order that make the service print `document`'s items: one rule per NCM from the
 * items' CST/CSOSN, rates and CFOP (a document whose items of one NCM differ cannot be configured: an error), the
 * group's regime from the CRT, each item a line of its price and quantity, and the order-level amounts the
 * document split to its items.
 */
export function serviceSetupOf(document: RealDocument, ids: { storeId: string; orderId: string; productPrefix: string }): ServiceSetup {
  const matrix: Record<string, Record<string, unknown>> = {};
  const categories = new Map<string, { productId: string; productName: string; ncm: string }>();
  const productIds: string[] = [];
  for (const item of document.items) {
    const rule = ruleOf(item);
    const ncm = item.prod.NCM!;
    const known = matrix[ncm];
    if (known && JSON.stringify(known) !== JSON.stringify(rule)) {
      throw new Error(`${document.file}: items of NCM ${ncm} carry different rules (${JSON.stringify(known)} and ${JSON.stringify(rule)})`);
    }
    matrix[ncm] = rule;
    const productId = `${ids.productPrefix}${item.prod.cProd}`;
    const category = categories.get(productId);
    if (category && category.ncm !== ncm) throw new Error(`${document.file}: product ${item.prod.cProd} has two NCMs`);
    categories.set(productId, { productId, productName: item.prod.xProd!, ncm });
    productIds.push(productId);
  }
  const shares = (['vDesc', 'vFrete', 'vOutro', 'vSeg'] as const).flatMap((field) => shareOf(document, field) ?? []);
  const amounts: Record<string, unknown> = {};
  for (const share of shares) {
    // The document's amounts as the store would send them: its own discount, its own delivery, its own charges.
    if (share.field === 'vDesc') amounts.discounts = [{ amount: share.total, sponsor: 'MERCHANT', target: 'ITEMS' }];
    if (share.field === 'vFrete') amounts.deliveryFee = { amount: share.total, deliveredBy: 'MERCHANT' };
    if (share.field === 'vOutro') amounts.otherCharges = [{ amount: share.total, chargedBy: 'MERCHANT' }];
    if (share.field === 'vSeg') throw new Error(`${document.file}: insurance (vSeg) has no order-level amount in the service`);
  }
  const order = {
    orderId: ids.orderId,
    store: { id: ids.storeId },
    order: {
      products: document.items.map((item, index) => ({
        productId: productIds[index],
        name: item.prod.xProd,
        quantity: figure(item.prod.qCom).toNumber(),
        price: { totalPrice: { total: item.prod.vProd } },
      })),
      ...amounts,
    },
  };
  const group: NewGroup = {
    name: `Emitter of ${document.key}`,
    uf: document.uf as NewGroup['uf'],
    // The CRT itself: 1 and 4 are Simples Nacional, 3 the normal regime.
    taxRegime: document.crt,
    stores: [{ store_id: ids.storeId, store_name: document.key }],
    taxMatrix: matrix as NewGroup['taxMatrix'],
    settings: { includeIcmsInPisCofinsBase: keepsIcmsInPisCofinsBase(document) },
  };
  return { group, categories: [...categories.values()], order, shares, productIds };
}
