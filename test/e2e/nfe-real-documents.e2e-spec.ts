import type { Schemas } from '../support/api.js';
import { figure, readRealDocument, serviceSetupOf, type RealDocument, type RealItem } from '../support/nfe-real-documents.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * Real authorized NF-e and NFC-e documents (test/fixtures/nfe-real/, where they come from in its README) printed again
 * by the service: a fiscal group and categories configured from each document's items, an order of its items with its
 * freight at order level, and GET /api/orders/{orderId}/nfe in the document's model. Every `det` figure the emitter
 * printed must come back the same, except the differences listed per document below, each explained: the test fails
 * when a figure differs that is not listed, and when a listed one stops differing.
 */

type Element = { [name: string]: string | Element };
type NfeAnswer = Schemas['NfeItemsDto'];
/** A group of the answer (`prod`, `imposto`, `ICMSTot`...): the schema types it as an open object of the layout's elements. */
const element = (value: unknown) => (value ?? {}) as Element;

/** A figure that differs: where, what the document printed, what the service answers. */
interface Difference {
  item: number | 'total';
  figure: string;
  document: string;
  service: string;
}

/** Figures compared as text; every other field is compared as a decimal number ("6.0000" equals "6"). */
const TEXT_FIELDS = new Set(['NCM', 'CFOP', 'CST', 'CSOSN', 'orig']);
/**
 * The compared figures of `det/prod`, beside the document's element each is read from. `vDesc`, `vFrete` and
 * `vOutro` are absent where 0, in the document and in the answer alike.
 */
const PROD_FIGURES = [
  'NCM', // det/prod/NCM
  'CFOP', // det/prod/CFOP
  'qCom', // det/prod/qCom
  'vUnCom', // det/prod/vUnCom
  'vProd', // det/prod/vProd
  'vDesc', // det/prod/vDesc
  'vFrete', // det/prod/vFrete
  'vOutro', // det/prod/vOutro
] as const;
/** The compared figures of `total/ICMSTot`, each the element of that name in the document. */
const TOTAL_FIGURES = ['vBC', 'vICMS', 'vFCP', 'vProd', 'vFrete', 'vDesc', 'vOutro', 'vPIS', 'vCOFINS', 'vNF'] as const;
/**
 * `modBC` (how the ICMS base is determined) is not compared: the service prints 3 (the value of the operation),
 * which is what these documents' bases are, though the 6-item NF-e's emitter printed 0.
 */
const NOT_COMPARED = new Set(['modBC']);

function same(name: string, document: string | undefined, service: string | undefined): boolean {
  if (TEXT_FIELDS.has(name)) return document === service;
  return figure(document).eq(figure(service));
}

/**
 * The differences between a tax group of the document (det/imposto/ICMS|PIS|COFINS/<group>) and the service's: the
 * group's name, then every field either prints (`orig`, `CST`/`CSOSN`, `vBC`, `pRedBC`, `pICMS`, `vICMS`, `pPIS`,
 * `vPIS`...). A field only one side prints counts as 0 on the other: an optional field printed as zero is no difference.
 */
function groupDifferences(tax: string, item: RealItem, documentGroup: RealItem['icms'], answer: Element | undefined): Difference[] {
  const [serviceName, serviceFields] = Object.entries((answer ?? {}) as Record<string, Element>)[0] ?? ['none', {}];
  const differences: Difference[] = [];
  if (documentGroup.name !== serviceName) {
    differences.push({ item: item.nItem, figure: `${tax} group`, document: documentGroup.name, service: serviceName });
  }
  const names = new Set([...Object.keys(documentGroup.fields), ...Object.keys(serviceFields)]);
  for (const name of names) {
    if (NOT_COMPARED.has(name)) continue;
    const document = documentGroup.fields[name];
    const service = typeof serviceFields[name] === 'string' ? serviceFields[name] : undefined;
    const zeroOnOneSide = (document === undefined || service === undefined) && !TEXT_FIELDS.has(name);
    if (!same(name, zeroOnOneSide ? (document ?? '0') : document, zeroOnOneSide ? (service ?? '0') : service)) {
      differences.push({ item: item.nItem, figure: `${tax}.${name}`, document: document ?? '(absent)', service: service ?? '(absent)' });
    }
  }
  return differences;
}

function differencesOf(document: RealDocument, answer: NfeAnswer): Difference[] {
  const differences: Difference[] = [];
  document.items.forEach((item, index) => {
    const det = answer.det[index];
    expect(det?.['@nItem']).toBe(String(item.nItem)); // det/@nItem
    for (const name of PROD_FIGURES) {
      const service = element(det?.prod)[name] as string | undefined;
      if (!same(name, item.prod[name] ?? '0', service ?? '0')) {
        differences.push({ item: item.nItem, figure: name, document: item.prod[name] ?? '(absent)', service: service ?? '(absent)' });
      }
    }
    const imposto = element(det?.imposto);
    differences.push(
      ...groupDifferences('ICMS', item, item.icms, imposto.ICMS as Element | undefined), // det/imposto/ICMS
      ...groupDifferences('PIS', item, item.pis, imposto.PIS as Element | undefined), // det/imposto/PIS
      ...groupDifferences('COFINS', item, item.cofins, imposto.COFINS as Element | undefined), // det/imposto/COFINS
    );
  });
  for (const name of TOTAL_FIGURES) {
    const service = element(answer.total.ICMSTot)[name] as string | undefined;
    if (!figure(document.totals[name]).eq(figure(service))) {
      differences.push({ item: 'total', figure: name, document: document.totals[name] ?? '(absent)', service: service ?? '(absent)' });
    }
  }
  return differences;
}

/** The rounding of a unit value: vProd ÷ qCom to 10 decimals, as the service prints vUnCom. */
const unitValue = (vProd: string, qCom: string) => figure(vProd).div(figure(qCom)).toDecimalPlaces(10).toString();

/**
 * Each document, with the figures the service prints differently and why. vUnCom: the emitters print the unit price
 * as sold and round qCom × vUnCom to vProd; the service prints vProd ÷ qCom, the unit value of the amount the order
 * sent. Both pass SEFAZ's check that vProd is within 0.01 of qCom × vUnCom, which the test asserts for every item.
 */
const DOCUMENTS: Array<{ file: string; label: string; differences: Difference[] }> = [
  {
    file: '41200323285089000185650010000013051817822496-nfce.xml',
    label: 'NFC-e of an ice-cream shop in Simples Nacional (CSOSN 500, PIS/COFINS 49 at zero)',
    differences: [],
  },
  {
    file: '41170310422724000187650010000000061000005858-nfce.xml',
    label: 'NFC-e in Simples Nacional (CSOSN 102, PIS/COFINS 07 not taxed)',
    differences: [],
  },
  {
    file: '35180834128745000152550010000476711079516696-nfe.xml',
    label: 'NF-e of a food company, normal regime: CST 00 at 18 % and CST 20 with a reduced base',
    differences: [
      // The order sends vProd 12.21 for 1 unit: 12.21 ÷ 1 = 12.21 (the document: 12.206 × 1 = 12.206 → 12.21)
      { item: 1, figure: 'vUnCom', document: '12.2060000', service: unitValue('12.21', '1') },
      // 12.13 ÷ 1 = 12.13 (the document: 12.1278 × 1 = 12.1278 → 12.13)
      { item: 2, figure: 'vUnCom', document: '12.1278000', service: unitValue('12.13', '1') },
    ],
  },
  {
    file: '35180834128745000152550010000476781421693968-nfe.xml',
    label: 'NF-e of a food company, normal regime: CST 20 with a third of the base off',
    differences: [
      // vBC = 313.92 × (100 − 33.33) / 100 = 209.290464 → 209.29; vICMS = 209.29 × 18 % = 37.6722 → 37.67. The emitter
      // printed 37.68: 313.92 × 18 % = 56.5056 → 56.51, then × 0.6667 = 37.675 → 37.68, rounding before the reduction.
      { item: 1, figure: 'ICMS.vICMS', document: '37.68', service: '37.67' },
      { item: 'total', figure: 'vICMS', document: '37.68', service: '37.67' },
    ],
  },
  {
    file: '35180834128745000152550010000474281920007498-nfe.xml',
    label: 'NF-e of a food company, normal regime, freight 52.64 split over six items',
    differences: [
      // The freight is in the service's PIS/COFINS base (net amount = vProd + vFrete, ICMS kept in as the document
      // keeps it); the emitter left the freight out: its base is vProd alone.
      // Item 1: 42.93 + 7.67 = 50.60; PIS 50.60 × 0.65 % = 0.3289 → 0.33; COFINS 50.60 × 3 % = 1.518 → 1.52
      ...pisCofins(1, { base: ['42.93', '50.60'], pis: ['0.28', '0.33'], cofins: ['1.29', '1.52'] }),
      // Item 2: 85.86 + 15.34 = 101.20; PIS 0.6578 → 0.66; COFINS 3.036 → 3.04
      ...pisCofins(2, { base: ['85.86', '101.20'], pis: ['0.56', '0.66'], cofins: ['2.58', '3.04'] }),
      // Item 3: as item 1
      ...pisCofins(3, { base: ['42.93', '50.60'], pis: ['0.28', '0.33'], cofins: ['1.29', '1.52'] }),
      // Item 4: 55.90 + 9.99 = 65.89; PIS 0.428285 → 0.43; COFINS 1.9767 → 1.98; vUnCom 55.90 ÷ 12 (the document: 4.658 × 12 = 55.896 → 55.90)
      { item: 4, figure: 'vUnCom', document: '4.6580000', service: unitValue('55.90', '12') },
      ...pisCofins(4, { base: ['55.90', '65.89'], pis: ['0.36', '0.43'], cofins: ['1.68', '1.98'] }),
      // Item 5 (PIS/COFINS 06, not taxed): vUnCom 34.27 ÷ 6 (the document: 5.712 × 6 = 34.272 → 34.27)
      { item: 5, figure: 'vUnCom', document: '5.7120000', service: unitValue('34.27', '6') },
      // Item 6: 32.75 + 5.85 = 38.60; PIS 0.2509 → 0.25; COFINS 1.158 → 1.16; vUnCom 32.75 ÷ 12 (the document: 2.72875 × 12 = 32.745 → 32.75)
      { item: 6, figure: 'vUnCom', document: '2.7287500', service: unitValue('32.75', '12') },
      ...pisCofins(6, { base: ['32.75', '38.60'], pis: ['0.21', '0.25'], cofins: ['0.98', '1.16'] }),
      // vPIS 0.33 + 0.66 + 0.33 + 0.43 + 0.25 = 2.00; vCOFINS 1.52 + 3.04 + 1.52 + 1.98 + 1.16 = 9.22
      { item: 'total', figure: 'vPIS', document: '1.69', service: '2.00' },
      { item: 'total', figure: 'vCOFINS', document: '7.82', service: '9.22' },
    ],
  },
];

/** The PIS and COFINS figures of an item whose base differs: [document, service] for each. */
function pisCofins(item: number, figures: { base: [string, string]; pis: [string, string]; cofins: [string, string] }): Difference[] {
  const { base, pis, cofins } = figures;
  return [
    { item, figure: 'PIS.vBC', document: base[0], service: base[1] },
    { item, figure: 'PIS.vPIS', document: pis[0], service: pis[1] },
    { item, figure: 'COFINS.vBC', document: base[0], service: base[1] },
    { item, figure: 'COFINS.vCOFINS', document: cofins[0], service: cofins[1] },
  ];
}

describe('real NF-e and NFC-e documents printed again by GET /api/orders/{orderId}/nfe (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let orders: string;

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(DOCUMENTS.map((entry, index) => ({ ...entry, index })))('$label', async ({ file, differences, index }) => {
    const document = readRealDocument(file);
    expect(document.status).toBe('100'); // protNFe/infProt/cStat: authorized
    const setup = serviceSetupOf(document, {
      storeId: `store-${document.key}`,
      orderId: `order-${document.key}`,
      productPrefix: `d${index}-`,
    });
    // The freight of the documents that have one was split by the service's own rule (see the fixtures' README).
    expect(setup.shares.filter((share) => !share.splitAsTheService)).toEqual([]);

    const group = await t.http.post('/admin/fiscal-groups', setup.group, { token: admin });
    expect(group.status).toBe(201);
    for (const category of setup.categories) {
      const created = await t.http.post('/admin/product-fiscal-categories', category, { token: admin });
      expect(created.status).toBe(201);
    }
    const enriched = await t.http.post('/enrich-order', setup.order, { token: orders });
    expect(enriched.status).toBe(200);

    // The JSON answer, read with its documented type (the typed client's answer is JSON or XML text).
    const response = await t.http.get<NfeAnswer>(`/orders/${encodeURIComponent(String(setup.order.orderId))}/nfe`, {
      token: orders,
      query: { model: document.model }, // infNFe/ide/mod
    });
    expect(response.status).toBe(200);
    const printed = response.body;
    expect(printed.model).toBe(document.model); // infNFe/ide/mod
    expect(printed.crt).toBe(document.crt); // infNFe/emit/CRT
    expect(printed.det).toHaveLength(document.items.length); // infNFe/det

    expect(differencesOf(document, printed)).toEqual(differences);

    // SEFAZ's check on every item the service prints: vProd within 0.01 of qCom × vUnCom.
    for (const det of printed.det) {
      const prod = element(det.prod);
      const gap = figure(prod.qCom as string)
        .times(figure(prod.vUnCom as string))
        .minus(figure(prod.vProd as string));
      expect(gap.abs().lte('0.01')).toBe(true);
    }
  });
});
