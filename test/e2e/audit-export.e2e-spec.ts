import { parse } from 'csv-parse/sync';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { AUDIT_EXPORT_BATCH } from '../../src/audit/audit-events.service.js';
import { TokenService } from '../../src/auth/token.service.js';
import { ok, type ErrorBody } from '../support/api.js';
import { unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const PATH = '/admin/audit-events.csv';
const COLUMNS = ['id', 'at', 'actorType', 'actorId', 'actorName', 'action', 'targetType', 'targetId', 'changes', 'requestId', 'address'];

/** The CSV's rows as objects keyed by the header row. */
function rowsOf(text: string): Record<string, string>[] {
  const [header, ...rows] = parse(text, { relaxColumnCount: false }) as string[][];
  expect(header).toEqual(COLUMNS);
  return rows.map((row) => Object.fromEntries(row.map((cell, index) => [header![index], cell])));
}

/**
 * GET /api/admin/audit-events.csv: the events of the list's filters, every page, newest first, streamed in batches;
 * admins only, like the list.
 */
describe('GET /api/admin/audit-events.csv (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let pos: string;
  let groupId: string;
  const orderId = unique('ORD-EXPORT');
  // Past a batch, with ten events sharing one instant across the batch boundary (the next batch starts by (at, id)).
  const manyEvents = AUDIT_EXPORT_BATCH * 2 + 7;

  beforeAll(async () => {
    t = await bootTestApp();
    const token = async (scopes: Parameters<TestApp['createClient']>[0], name: string) =>
      (await t.app.get(TokenService).issue((await t.createClient(scopes, name)).clientId, scopes)).accessToken;
    // A name a spreadsheet would run as a formula (`@`): the export writes it inert.
    admin = await token(['admin'], '@Export Admin');
    pos = await token(['orders'], 'POS 162');
    const created = ok(
      await t.apiAs(admin).POST('/api/admin/fiscal-groups', {
        // A comma and quotes inside the changes' JSON cell.
        body: { name: '=HYPERLINK("x"),1', uf: 'SP', stores: [{ store_id: unique('exp-store'), store_name: 'One' }], taxMatrix: {} },
        headers: { 'x-request-id': 'req-export-create' },
      }),
      201,
    );
    groupId = created.id;

    const base = Date.parse('2026-11-01T00:00:00Z');
    const shared = AUDIT_EXPORT_BATCH - 5;
    await t.dataSource.getRepository(AuditEventEntity).insert(
      Array.from({ length: manyEvents }, (_, index) => ({
        at: new Date(base + (index >= shared && index < shared + 10 ? shared : index) * 1000),
        actorType: 'client' as const,
        actorId: 'pos-1',
        actorName: 'POS',
        action: 'change-status',
        targetType: 'order',
        targetId: orderId,
        changes: { status: { before: 'ACCEPTED', after: `READY-${index}` } },
        requestId: null,
        address: null,
      })),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers the target's events as CSV, as the list answers them, with a formula-looking cell made inert", async () => {
    const answer = await t.http.get(PATH, { token: admin, query: { targetType: 'fiscal-group', targetId: groupId } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="audit-events.csv"');
    const rows = rowsOf(answer.text);
    const listed = ok(
      await t.apiAs(admin).GET('/api/admin/audit-events', { params: { query: { targetType: 'fiscal-group', targetId: groupId } } }),
      200,
    );
    expect(rows).toHaveLength(1);
    const [event] = listed.items;
    expect(rows[0]).toEqual({
      id: event!.id,
      at: event!.at,
      actorType: 'client',
      actorId: event!.actor.id,
      actorName: "'@Export Admin",
      action: 'create',
      targetType: 'fiscal-group',
      targetId: groupId,
      changes: JSON.stringify(event!.changes),
      requestId: 'req-export-create',
      address: '127.0.0.1',
    });
    expect(JSON.parse(rows[0]!.changes!).name.after).toBe('=HYPERLINK("x"),1');
  });

  it('writes every event of the filters past one batch, newest first, each once (events sharing an instant included)', async () => {
    const rows = rowsOf((await t.http.get(PATH, { token: admin, query: { targetType: 'order', targetId: orderId } })).text);
    expect(rows).toHaveLength(manyEvents);
    expect(new Set(rows.map((row) => row.id)).size).toBe(manyEvents);
    const ids = rows.map((row) => BigInt(row.id!));
    const ats = rows.map((row) => Date.parse(row.at!));
    for (let index = 1; index < rows.length; index++) {
      expect(ats[index - 1]! >= ats[index]!).toBe(true);
      if (ats[index - 1] === ats[index]) expect(ids[index - 1]! > ids[index]!).toBe(true);
    }
    expect(JSON.parse(rows.at(-1)!.changes!)).toEqual({ status: { before: 'ACCEPTED', after: 'READY-0' } });
  });

  it("takes the list's other filters (action, from, to) and refuses what the list refuses, and page parameters", async () => {
    const window = rowsOf(
      (
        await t.http.get(PATH, {
          token: admin,
          query: { targetId: orderId, action: 'change-status', from: '2026-11-01T00:00:10Z', to: '2026-11-01T00:00:19Z' },
        })
      ).text,
    );
    expect(window.map((row) => JSON.parse(row.changes!).status.after)).toEqual(
      Array.from({ length: 10 }, (_, index) => `READY-${19 - index}`),
    );
    const refused = await t.http.get<ErrorBody>(PATH, { token: admin, query: { targetType: 'planet', pageSize: 5 } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('VALIDATION_FAILED');
    expect(refused.body.details?.map((detail) => detail.field).sort()).toEqual(['pageSize', 'targetType']);
  });

  it('is for admins only, like the list', async () => {
    expect((await t.http.get(PATH)).status).toBe(401);
    const forbidden = await t.http.get<ErrorBody>(PATH, { token: pos });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('FORBIDDEN');
  });
});

/** A cell that a spreadsheet would run as a formula is written with a leading apostrophe. */
describe('the audit CSV cells', () => {
  it('quotes separators and quotes, and makes formulas inert', async () => {
    const { auditCsvCell } = await import('../../src/audit/audit-events-csv.js');
    expect(auditCsvCell('=HYPERLINK("x"),1')).toBe(`"'=HYPERLINK(""x""),1"`);
    expect(auditCsvCell('+55 11')).toBe("'+55 11");
    expect(auditCsvCell('Ana; Souza')).toBe('"Ana; Souza"');
    expect(auditCsvCell(null)).toBe('');
  });
});
