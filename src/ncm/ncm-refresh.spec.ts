import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refreshNcmTable } from './ncm-refresh.js';
import { readNcmTableFile } from './ncm-table.js';

const FIXTURE = readFileSync(new URL('../../test/fixtures/ncm/ncm-fixture.json', import.meta.url));

describe('ncm:refresh', () => {
  let server: Server;
  let base: string;
  const directory = mkdtempSync(join(tmpdir(), 'ncm-refresh-'));

  beforeAll(async () => {
    // A local stand-in for the official download: the fixture, an error page, and a page that is not JSON.
    server = createServer((request, response) => {
      if (request.url === '/table.json') response.writeHead(200, { 'content-type': 'application/json' }).end(FIXTURE);
      else if (request.url === '/html') response.writeHead(200, { 'content-type': 'text/html' }).end('<html>manutenção</html>');
      else response.writeHead(503).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it('downloads the table, and writes it compacted with its version, source and digest', async () => {
    const out = join(directory, 'downloaded.json.gz');
    await refreshNcmTable({ source: `${base}/table.json`, out, now: new Date('2026-12-07T12:00:00Z') });
    const written = readNcmTableFile(out);
    expect(written.version).toEqual({ updatedAt: 'FIXTURE for tests, not a publication', act: 'FIXTURE: no act' });
    expect(written.source).toEqual({
      url: `${base}/table.json`,
      retrievedAt: '2026-12-07T12:00:00.000Z',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(written.entries).toHaveLength(15);
    expect(written.entries).toContainEqual(['22030000', '[fixture] Cervejas de malte', '2022-04-01', '9999-12-31']);
  });

  it('reads a saved copy from a file as well', async () => {
    const saved = join(directory, 'saved.json');
    writeFileSync(saved, Buffer.concat([Buffer.from('\uFEFF'), FIXTURE]));
    const out = join(directory, 'from-file.json.gz');
    await refreshNcmTable({ source: saved, out });
    expect(readNcmTableFile(out).entries).toHaveLength(15);
  });

  it('leaves the table file as it was when the download fails or is not the table', async () => {
    const out = join(directory, 'kept.json.gz');
    await refreshNcmTable({ source: `${base}/table.json`, out });
    const before = readFileSync(out);
    await expect(refreshNcmTable({ source: `${base}/down`, out })).rejects.toThrow(/answered 503/);
    await expect(refreshNcmTable({ source: `${base}/html`, out })).rejects.toThrow(/not JSON/);
    expect(readFileSync(out)).toEqual(before);
  });
});
