import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DemoDataSeeder } from '../../src/demo/demo-data.seeder.js';
import { DEMO_PRODUCTS, DEMO_STORE_ID, DEMO_TAX_MATRIX } from '../../src/demo/demo-data.js';
import { FiscalGroupEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { validateTaxMatrix } from '../../src/fiscal-groups/tax-rule-validation.js';
import { ok, type Schemas } from '../support/api.js';
import { PROJECT_ROOT } from '../support/service-process.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const execFileAsync = promisify(execFile);

function runCli(args: string[], databaseUrl: string) {
  return execFileAsync(process.execPath, ['dist/src/cli/main.js', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('tax-matrix:import CLI (e2e)', () => {
  let t: TestApp;
  let token: string;
  let directory: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
    directory = await mkdtemp(join(tmpdir(), 'tax-matrix-cli-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('imports a large CSV with progress output, and changes nothing when a row is bad', async () => {
    const group = await t.http.post<Schemas['FiscalGroupResponseDto']>(
      '/admin/fiscal-groups',
      { name: 'CLI import', uf: 'MG', stores: [{ store_id: `cli-${process.pid}`, store_name: 'x' }], taxMatrix: {} },
      { token },
    );
    expect(group.status).toBe(201);
    const header = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP';
    const rows = Array.from({ length: 5000 }, (_, index) => `${10_000_000 + index * 7},,00,${(index % 2000) / 100},01,0.65,01,3,5102`);
    const good = join(directory, 'good.csv');
    await writeFile(good, [header, ...rows].join('\n'));

    const imported = await runCli(['tax-matrix:import', '--group', group.body.id, good], t.databaseUrl);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/imported 5000 rule\(s\)/);
    expect(imported.stderr).toMatch(/validating good\.csv: 100% \(5000\/5000\)/);
    const stored = await t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.body.id}`, { token });
    expect(Object.keys(stored.body.taxMatrix)).toHaveLength(5000);
    expect(stored.body.taxMatrix['10000007']).toMatchObject({ NCM: '10000007', ICMS_rate: 0.01, PIS_rate: 0.65 });

    const bad = join(directory, 'bad.csv');
    await writeFile(bad, [header, '22021000,,60,18,04,0.65,04,3,5405', '22030000,,60,180,04,0.65,04,3,5405'].join('\n'));
    const refused = await runCli(['tax-matrix:import', '--group', group.body.id, bad], t.databaseUrl);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/line 3 ICMS_rate/);
    const unchanged = await t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.body.id}`, { token });
    expect(Object.keys(unchanged.body.taxMatrix)).toHaveLength(5000);
  });

  it('refuses a 7-digit NCM with its line and the hint of the dropped leading zero, the matrix unchanged', async () => {
    const group = await t.http.post<Schemas['FiscalGroupResponseDto']>(
      '/admin/fiscal-groups',
      { name: 'CLI zero import', uf: 'MG', stores: [{ store_id: `cli-zero-${process.pid}`, store_name: 'x' }], taxMatrix: {} },
      { token },
    );
    expect(group.status).toBe(201);
    const dropped = join(directory, 'dropped-zero.csv');
    // 04011010 saved by a spreadsheet as the number 4011010: as a 7-digit prefix it would tax no product at all.
    await writeFile(
      dropped,
      ['NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate', '4011010,,00,18,01,0.65,01,3'].join('\n'),
    );
    const refused = await runCli(['tax-matrix:import', '--group', group.body.id, dropped], t.databaseUrl);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^line 2 NCM: .*7 digits.*spreadsheet dropped its leading zero.*04011010/m);
    const unchanged = await t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.body.id}`, { token });
    expect(unchanged.body.taxMatrix).toEqual({});
  });

  it('prints at most the first 100 problems of a bad file, and where checking stopped', async () => {
    const group = await t.http.post<Schemas['FiscalGroupResponseDto']>(
      '/admin/fiscal-groups',
      { name: 'CLI bad import', uf: 'MG', stores: [{ store_id: `cli-bad-${process.pid}`, store_name: 'x' }], taxMatrix: {} },
      { token },
    );
    const bad = join(directory, 'many-problems.csv');
    await writeFile(bad, `NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\n${'x\n'.repeat(100_000)}`);
    const refused = await runCli(['tax-matrix:import', '--group', group.body.id, bad], t.databaseUrl);
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trimEnd().split('\n');
    expect(lines.filter((line) => /^line \d+: has 1 cells, the header has 8$/.test(line))).toHaveLength(100);
    expect(lines.at(-1)).toBe(
      `more than 100 problems, the first 100 listed (checking stopped at line 102 of 100001) in ${bad}; the matrix was not changed`,
    );
  });

  it('refuses bad arguments before touching the database', async () => {
    const noGroup = await runCli(['tax-matrix:import', 'file.csv'], 'postgres://nobody@127.0.0.1:1/none');
    expect(noGroup.code).toBe(64);
    expect(noGroup.stderr).toMatch(/--group must be the fiscal group id/);
  });
});

describe('demo data (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ SEED_DEMO_DATA: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is a valid matrix whose every demo product resolves to a rule', () => {
    expect(validateTaxMatrix(DEMO_TAX_MATRIX)).toEqual([]);
    for (const product of DEMO_PRODUCTS) {
      const keys = [8, 7, 6, 5, 4, 3, 2].map((length) => product.ncm.slice(0, length));
      expect([product.productId, keys.some((key) => key in DEMO_TAX_MATRIX)]).toEqual([product.productId, true]);
    }
    const zeroIcms = Object.values(DEMO_TAX_MATRIX).filter((rule) => rule.CST_ICMS === '60');
    const zeroPisCofins = Object.values(DEMO_TAX_MATRIX).filter((rule) => rule.CST_PIS === '04' && rule.CST_COFINS === '04');
    expect(zeroIcms.length).toBeGreaterThan(0);
    expect(zeroPisCofins.length).toBeGreaterThan(0);
  });

  it('loads the demo group for the demo store and the product categories at start', async () => {
    const api = t.apiAs(await t.tokenFor(['admin']));
    const group = ok(await api.GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId: DEMO_STORE_ID } } }), 200);
    expect(group.taxMatrix).toEqual(DEMO_TAX_MATRIX);
    const categories = ok(await api.GET('/api/admin/product-fiscal-categories'), 200);
    expect(categories.map((category) => category.productId)).toEqual(
      expect.arrayContaining(DEMO_PRODUCTS.map((product) => product.productId)),
    );
  });

  it('is idempotent', async () => {
    const again = await t.app.get(DemoDataSeeder).seed();
    expect(again).toEqual({ groupCreated: false, productsCreated: 0 });
    expect(await t.dataSource.getRepository(FiscalGroupEntity).countBy({ externalId: 'demo-restaurant-sp' })).toBe(1);
  });
});
