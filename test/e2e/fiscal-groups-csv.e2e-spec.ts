import { ok, type Api, type ErrorBody, type Schemas } from '../support/api.js';
import { groupBody, RULES, type Group } from '../support/fiscal-groups.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/admin/fiscal-groups';

describe('fiscal groups: the tax matrix as CSV (e2e)', () => {
  let t: TestApp;
  let token: string;
  let api: Api;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
    api = t.apiAs(token);
  });
  afterAll(async () => {
    await t.close();
  });

  const created = async (): Promise<Group> => ok(await api.POST('/api/admin/fiscal-groups', { body: groupBody() }), 201);
  const byId = (id: string) => api.GET('/api/admin/fiscal-groups/{id}', { params: { path: { id } } });
  const update = (id: string, body: Schemas['UpdateFiscalGroupDto']) =>
    api.PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id } }, body });

  describe('tax matrix CSV', () => {
    it('exports and re-imports the identical matrix', async () => {
      const group = await created();
      const exported = await t.http.get(`${BASE}/${group.id}/tax-matrix.csv`, { token });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(exported.text.split('\r\n')).toHaveLength(Object.keys(RULES).length + 2);

      ok(await update(group.id, { taxMatrix: {} }), 200);
      // CSV bodies: sent raw.
      const imported = await t.http.put<Group>(`${BASE}/${group.id}/tax-matrix`, undefined, {
        token,
        raw: exported.text,
        headers: { 'content-type': 'text/csv' },
      });
      expect(imported.status).toBe(200);
      expect(imported.body.taxMatrix).toEqual(RULES);
      expect(ok(await byId(group.id), 200).taxMatrix).toEqual(RULES);
    });

    it('changes nothing when one row is bad, and names the line', async () => {
      const group = await created();
      const csv = [
        'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate',
        '22030000,,60,18,04,0,04,0',
        '22021000,,60,118,04,0,04,0',
      ].join('\n');
      const response = await t.http.put<ErrorBody>(`${BASE}/${group.id}/tax-matrix`, undefined, {
        token,
        raw: csv,
        headers: { 'content-type': 'text/csv' },
      });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([
        { field: 'line 3 ICMS_rate', line: 3, column: 'ICMS_rate', problem: expect.stringMatching(/0 to 100/) },
      ]);
      expect(ok(await byId(group.id), 200).taxMatrix).toEqual(RULES);
    });

    it('names the line a record starts on in a CRLF spreadsheet export with a multi-line quoted cell, and refuses bad quoting', async () => {
      const group = await created();
      const put = (raw: string) =>
        t.http.put<ErrorBody>(`${BASE}/${group.id}/tax-matrix`, undefined, { token, raw, headers: { 'content-type': 'text/csv' } });
      const header = '\uFEFFNCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;CFOP';
      const multiLine = await put(
        [header, '21069090;"";"00";"18";01;"0,65";01;3;"51\r\n02"', '', '22030000;;60;"118,5";04;0;04;0;5405', ''].join('\r\n'),
      );
      expect(multiLine.status).toBe(400);
      expect(multiLine.body.details?.map(({ field, line, column }) => ({ field, line, column }))).toEqual([
        { field: 'line 2 CFOP', line: 2, column: 'CFOP' },
        { field: 'line 5 ICMS_rate', line: 5, column: 'ICMS_rate' },
      ]);

      const badQuote = await put([header, '21069090;;00;18;01;0,65;01;3;"51"02', ''].join('\r\n'));
      expect(badQuote.status).toBe(400);
      // A problem of the whole line: no column.
      expect(badQuote.body.details).toEqual([{ field: 'line 2', line: 2, problem: expect.stringMatching(/after the closing quote/) }]);
      expect(badQuote.body.details?.[0]).not.toHaveProperty('column');
      expect(ok(await byId(group.id), 200).taxMatrix).toEqual(RULES);
    });

    it('imports what pt-BR Excel saves with empty columns at the end, and refuses a value under a column without a name', async () => {
      const group = await created();
      const put = (raw: string) =>
        t.http.put<Group & ErrorBody>(`${BASE}/${group.id}/tax-matrix`, undefined, { token, raw, headers: { 'content-type': 'text/csv' } });
      const header = '\uFEFFNCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;CFOP;;';
      const valueUnderNoName = await put([header, '21069090;;00;18;01;0,65;01;3;5102;;x', ''].join('\r\n'));
      expect(valueUnderNoName.status).toBe(400);
      expect(valueUnderNoName.body.details).toEqual([{ field: 'line 2', line: 2, problem: 'column 11 has no name' }]);

      const imported = await put([header, '21069090;;00;18;01;0,65;01;3;5102;;', ';;;;;;;;;;', ''].join('\r\n'));
      expect(imported.status).toBe(200);
      expect(imported.body.taxMatrix).toEqual({
        '21069090': {
          NCM: '21069090',
          CEST: '',
          CST_ICMS: '00',
          ICMS_rate: 18,
          CST_PIS: '01',
          PIS_rate: 0.65,
          CST_COFINS: '01',
          COFINS_rate: 3,
          CFOP: '5102',
        },
      });
    });

    it('lists the first 100 problems of a file with a million, and says where checking stopped', async () => {
      const group = await created();
      // 2 MB, well under the 8 MiB CSV limit: every row has one cell where the header has 9.
      const csv = `NCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;CFOP\n${'x\n'.repeat(1_000_000)}`;
      const response = await t.http.put<ErrorBody>(`${BASE}/${group.id}/tax-matrix`, undefined, {
        token,
        raw: csv,
        headers: { 'content-type': 'text/csv' },
      });
      expect([response.status, response.body.error]).toEqual([400, 'VALIDATION_FAILED']);
      expect(response.body.details).toHaveLength(100);
      expect(response.body.details?.[99]).toEqual({ field: 'line 101', line: 101, problem: 'has 1 cells, the header has 9' });
      expect(response.body.message).toMatch(
        /^The CSV has more than 100 problems, the first 100 listed \(checking stopped at line 102 of 1000001\); nothing was changed\. line 2: /,
      );
      expect(response.text.length).toBeLessThan(16 * 1024);
      expect(ok(await byId(group.id), 200).taxMatrix).toEqual(RULES);
    });

    it('refuses a JSON body on the CSV route and CSV on the JSON routes', async () => {
      const group = await created();
      const json = await t.http.put(`${BASE}/${group.id}/tax-matrix`, { a: 1 }, { token });
      expect(json.status).toBe(415);
      const csvOnJson = await t.http.post(BASE, undefined, { token, raw: 'NCM\n1', headers: { 'content-type': 'text/csv' } });
      expect(csvOnJson.status).toBe(415);
    });

    it('404s the CSV routes of an unknown group', async () => {
      const id = '00000000-0000-4000-8000-000000000000';
      expect((await t.http.get(`${BASE}/${id}/tax-matrix.csv`, { token })).status).toBe(404);
      const csv = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\n22030000,,60,18,04,0,04,0\n';
      expect(
        (await t.http.put(`${BASE}/${id}/tax-matrix`, undefined, { token, raw: csv, headers: { 'content-type': 'text/csv' } })).status,
      ).toBe(404);
    });
  });
});
