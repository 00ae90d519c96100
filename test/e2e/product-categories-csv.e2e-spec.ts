import { productCategory } from '../factories/product-category.factory.js';
import type { ErrorBody, Schemas } from '../support/api.js';
import { asPerson, signedInPerson } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { ProductFiscalCategoryEntity } from '../../src/product-categories/product-fiscal-category.entity.js';

type Report = Schemas['ProductCategoryImportReportDto'];
const FILE = '/admin/product-fiscal-categories.csv';
const CSV = { 'content-type': 'text/csv' };

describe('product fiscal categories as CSV (e2e)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
  });
  afterAll(async () => {
    await t.close();
  });

  const exported = async () => {
    const response = await t.http.get(FILE, { token });
    expect(response.status).toBe(200);
    return response;
  };
  const send = (raw: string | Buffer, dryRun: boolean, headers: Record<string, string> = CSV) =>
    t.http.post<Report & ErrorBody>(`${FILE}${dryRun ? '?dryRun=true' : ''}`, undefined, { token, raw, headers });
  const stored = async () =>
    (await t.dataSource.getRepository(ProductFiscalCategoryEntity).find({ order: { productId: 'ASC' } })).map(
      ({ productId, productName, ncm, externalProductId }) => ({ productId, productName, ncm, externalProductId }),
    );
  const clear = () => t.dataSource.getRepository(ProductFiscalCategoryEntity).clear();

  it('exports every category, formulas neutralised, and the export imports back as unchanged on every row', async () => {
    await clear();
    await productCategory(t.dataSource, {
      productId: 'cola',
      productName: '=HYPERLINK("http://evil.example","click")',
      ncm: '22021000',
      externalProductId: 'SKU-1',
    });
    await productCategory(t.dataSource, {
      productId: '@sum',
      productName: ' padded; "quoted" ',
      ncm: '01012100',
      externalProductId: '+55',
    });
    await productCategory(t.dataSource, { productId: 'beer', productName: "'=already quoted", ncm: '22030000' });
    const response = await exported();
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="product-fiscal-categories.csv"');
    expect(response.text).toBe(
      [
        'productId,productName,ncm,externalProductId',
        `'@sum," padded; ""quoted"" ",01012100,'+55`,
        "beer,''=already quoted,22030000,",
        `cola,"'=HYPERLINK(""http://evil.example"",""click"")",22021000,SKU-1`,
        '',
      ].join('\r\n'),
    );
    const before = await stored();

    const dry = await send(response.text, true);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      encoding: 'utf-8',
      counts: { created: 0, changed: 0, unchanged: 3, error: 0 },
    });
    expect(dry.body.rows.map((row) => [row.line, row.productId, row.outcome])).toEqual([
      [2, '@sum', 'unchanged'],
      [3, 'beer', 'unchanged'],
      [4, 'cola', 'unchanged'],
    ]);
    const real = await send(response.text, false);
    expect(real.status).toBe(200);
    expect(real.body).toMatchObject({ dryRun: false, applied: true, counts: { unchanged: 3 } });
    expect(await stored()).toEqual(before);
  });

  it('a dry run lists created, changed field by field, unchanged and error rows with their lines and codes, and changes nothing', async () => {
    await clear();
    await productCategory(t.dataSource, { productId: 'cola', productName: 'Coca-Cola', ncm: '22021000', externalProductId: 'SKU-1' });
    await productCategory(t.dataSource, { productId: 'beer', productName: 'Cerveja', ncm: '22030000' });
    await productCategory(t.dataSource, { productId: 'tea', productName: 'Chá', ncm: '21012010', externalProductId: 'SKU-T' });
    const before = await stored();
    const file = [
      'productId;productName;ncm;externalProductId',
      'cola;Coca-Cola;22021000;SKU-1',
      'beer;Cerveja artesanal;22030000;SKU-T',
      'water;Água;22011000;',
      'beef;Carne;2013000;',
      'beer;Again;22030000;',
    ].join('\r\n');
    const dry = await send(file, true);
    expect(dry.status).toBe(200);
    expect(dry.body.counts).toEqual({ created: 1, changed: 0, unchanged: 1, error: 3 });
    expect(dry.body.rows).toEqual([
      { line: 2, productId: 'cola', outcome: 'unchanged', changes: [], problems: [], warnings: [] },
      {
        line: 3,
        productId: 'beer',
        outcome: 'error',
        changes: [],
        problems: [{ code: 'EXTERNAL_PRODUCT_ID_IN_USE', column: 'externalProductId', otherProductId: 'tea', problem: expect.any(String) }],
        warnings: [],
      },
      {
        line: 4,
        productId: 'water',
        outcome: 'created',
        changes: [
          { field: 'productName', before: null, after: 'Água' },
          { field: 'ncm', before: null, after: '22011000' },
        ],
        problems: [],
        warnings: [],
      },
      {
        line: 5,
        productId: 'beef',
        outcome: 'error',
        changes: [],
        problems: [
          {
            code: 'NCM_LEADING_ZERO_DROPPED',
            column: 'ncm',
            suggestion: '02013000',
            problem:
              '2013000 has 7 digits: a spreadsheet dropped its leading zero; write 02013000 (format the column as text so that it keeps it)',
          },
        ],
        warnings: [],
      },
      {
        line: 6,
        productId: 'beer',
        outcome: 'error',
        changes: [],
        problems: [{ code: 'PRODUCT_ID_REPEATED', column: 'productId', otherLine: 3, problem: 'productId beer is already on line 3' }],
        warnings: [],
      },
    ]);
    expect(await stored()).toEqual(before);

    // The same file for real: nothing written, every problem by line and column.
    const refused = await send(file, false);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('VALIDATION_FAILED');
    expect(refused.body.details).toEqual([
      {
        field: 'line 3 externalProductId',
        line: 3,
        column: 'externalProductId',
        problem: 'externalProductId SKU-T is already used by product tea',
      },
      { field: 'line 5 ncm', line: 5, column: 'ncm', problem: expect.stringMatching(/^2013000 has 7 digits: .*write 02013000/) },
      { field: 'line 6 productId', line: 6, column: 'productId', problem: 'productId beer is already on line 3' },
    ]);
    expect(await stored()).toEqual(before);
  });

  it('writes a clean file in one go, audited and in each category’s history, moving an external id between products', async () => {
    await clear();
    await productCategory(t.dataSource, { productId: 'cola', productName: 'Coca-Cola', ncm: '22021000', externalProductId: 'SKU-1' });
    await productCategory(t.dataSource, { productId: 'beer', productName: 'Cerveja', ncm: '22030000', externalProductId: 'SKU-2' });
    const file =
      'productId,productName,ncm,externalProductId\ncola,Coca-Cola,22021000,SKU-2\nbeer,Cerveja,22030000,SKU-1\nwater,Água,22011000,\n';
    const real = await send(file, false);
    expect(real.status).toBe(200);
    expect(real.body).toMatchObject({ applied: true, counts: { created: 1, changed: 2, unchanged: 0, error: 0 } });
    expect(await stored()).toEqual([
      { productId: 'beer', productName: 'Cerveja', ncm: '22030000', externalProductId: 'SKU-1' },
      { productId: 'cola', productName: 'Coca-Cola', ncm: '22021000', externalProductId: 'SKU-2' },
      { productId: 'water', productName: 'Água', ncm: '22011000', externalProductId: null },
    ]);
    const history = await t.http.get<Schemas['ProductCategoryHistoryPageDto']>('/admin/product-fiscal-categories/water/history', { token });
    expect(history.body.items).toEqual([expect.objectContaining({ kind: 'create', actor: expect.objectContaining({ type: 'client' }) })]);
    const audit = await t.http.get<{ items: Array<{ action: string; targetId: string; changes: unknown }> }>('/admin/audit-events', {
      token,
      query: { targetType: 'product-fiscal-category', targetId: 'cola' },
    });
    expect(audit.body.items[0]).toMatchObject({ action: 'update', changes: { externalProductId: { before: 'SKU-1', after: 'SKU-2' } } });
  });

  it('lets fiscal people import and export, and refuses support people and clients without the admin scope', async () => {
    const fiscal = await signedInPerson(t, 'fiscal');
    const support = await signedInPerson(t, 'support');
    const file = 'productId,productName,ncm\nperson-made,Suco,20098990\n';
    const asFiscal = await t.http.post<Report>(`${FILE}?dryRun=true`, undefined, {
      ...asPerson(fiscal),
      raw: file,
      headers: { ...asPerson(fiscal).headers, ...CSV },
    });
    expect(asFiscal.status).toBe(200);
    expect((await t.http.get(FILE, asPerson(fiscal))).status).toBe(200);
    const asSupport = await t.http.post<ErrorBody>(`${FILE}?dryRun=true`, undefined, {
      raw: file,
      headers: { ...asPerson(support).headers, ...CSV },
    });
    expect(asSupport.status).toBe(403);
    expect((await t.http.get(FILE, asPerson(support))).status).toBe(403);
    const orders = await t.tokenFor(['orders']);
    expect((await t.http.post(FILE, undefined, { token: orders, raw: file, headers: CSV })).status).toBe(403);
    expect((await t.http.get(FILE, {})).status).toBe(401);
  });

  describe('a file that cannot be read is a 400 naming why, never a 500', () => {
    const refusedFor = async (raw: string | Buffer, headers = CSV) => {
      for (const dryRun of [true, false]) {
        const response = await send(raw, dryRun, headers);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('VALIDATION_FAILED');
      }
      return (await send(raw, true, headers)).body.details;
    };

    it('empty, blank, a header of other columns, a repeated column, bad quoting', async () => {
      expect(await refusedFor('')).toEqual([{ field: 'line 1', line: 1, problem: 'the file is empty: expected a header row' }]);
      expect(await refusedFor('\r\n;;\r\n')).toEqual([expect.objectContaining({ line: 1, problem: expect.stringMatching(/empty/) })]);
      expect(await refusedFor('NCM,CEST,CST_ICMS\n22021000,,60\n')).toEqual([
        expect.objectContaining({ line: 1, problem: expect.stringMatching(/^unknown column\(s\) NCM, CEST, CST_ICMS/) }),
        expect.objectContaining({ line: 1, problem: 'missing column(s) productId, productName, ncm' }),
      ]);
      expect(await refusedFor('productId,productName,ncm,ncm\n')).toEqual([expect.objectContaining({ problem: 'repeated column(s) ncm' })]);
      expect(await refusedFor('productId,productName,ncm\na,"b,22021000\n')).toEqual([
        expect.objectContaining({ line: 2, problem: expect.stringMatching(/never closed/) }),
      ]);
    });

    it('UTF-16 and binary files; more rows than allowed', async () => {
      expect(await refusedFor(Buffer.from('\uFEFFproductId,productName,ncm\r\na,b,22021000\r\n', 'utf16le'))).toEqual([
        expect.objectContaining({ line: 1, problem: expect.stringMatching(/UTF-16/) }),
      ]);
      expect(await refusedFor(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toEqual([expect.objectContaining({ line: 1 })]);
      const many = ['productId,productName,ncm', ...Array.from({ length: 20_001 }, (_, i) => `p${i},n,22021000`), ''].join('\n');
      expect(await refusedFor(many)).toEqual([
        expect.objectContaining({ line: 20_002, problem: expect.stringMatching(/more than 20000 rows/) }),
      ]);
    });

    it('a body past the CSV limit is a 413, another content type a 415', async () => {
      const huge = `productId,productName,ncm\n${'x'.repeat(9 * 1024 * 1024)}\n`;
      const tooLarge = await send(huge, true);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body.error).toBe('PAYLOAD_TOO_LARGE');
      const json = await t.http.post<ErrorBody>(`${FILE}?dryRun=true`, { productId: 'x' }, { token });
      expect(json.status).toBe(415);
      expect(json.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect((await t.http.post<ErrorBody>(`${FILE}?dryRun=maybe`, undefined, { token, raw: 'a', headers: CSV })).status).toBe(400);
    });
  });

  it('reads a Windows-1252 file (pt-BR Excel), a BOM and semicolons, and takes a formula cell as text', async () => {
    await clear();
    const latin1 = Buffer.from('productId;productName;ncm\r\nagua;Água com gás;22011000\r\n', 'latin1');
    const read = await send(latin1, true);
    expect(read.status).toBe(200);
    expect(read.body.encoding).toBe('windows-1252');
    expect(read.body.rows[0]!.changes[0]).toEqual({ field: 'productName', before: null, after: 'Água com gás' });

    const formulas = "\uFEFFproductId;productName;ncm\r\n=cmd|' /C calc'!A0;@SUM(1+1);22021000\r\n";
    const imported = await send(formulas, false);
    expect(imported.status).toBe(200);
    expect(await stored()).toEqual([
      { productId: "=cmd|' /C calc'!A0", productName: '@SUM(1+1)', ncm: '22021000', externalProductId: null },
    ]);
    expect((await exported()).text).toContain(`'=cmd|' /C calc'!A0,'@SUM(1+1),22021000,`);
  });
});
