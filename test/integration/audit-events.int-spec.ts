import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import type { AuditContext, AuditRecord } from '../../src/audit/audit-event.types.js';
import { AuditEventsRepository } from '../../src/audit/audit-events.repository.js';
import { AuditEventsService } from '../../src/audit/audit-events.service.js';
import { AuditLog } from '../../src/audit/audit-log.js';
import { AuditModule } from '../../src/audit/audit.module.js';
import { AuditRetention } from '../../src/audit/audit-retention.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

const person = (n: number): AuditContext => ({
  actor: { type: 'user', id: `user-${n}`, name: `Person ${n}` },
  requestId: `req-${n}`,
  address: '198.51.100.1',
});
const client: AuditContext = { actor: { type: 'client', id: '7001', name: 'POS Quito' }, requestId: 'req-pos', address: '198.51.100.2' };
const groupEvent = (id: string): AuditRecord => ({ action: 'update', target: { type: 'fiscal-group', id }, changes: {} });

/** The audit log's list (filters, order, page envelope, the plans of its query) and its retention job, on the real database. */
describe('audit events: list and retention (integration)', () => {
  let db: IntegrationContext;
  let service: AuditEventsService;
  let audit: AuditLog;
  let transactions: TransactionRunner;

  beforeAll(async () => {
    db = await bootIntegration({ imports: [AuditModule], env: { AUDIT_RETENTION_DAYS: '30' } });
    await db.get(JobRunner).stopAll();
    service = db.get(AuditEventsService);
    audit = db.get(AuditLog);
    transactions = db.get(TransactionRunner);
    // 3,000 events: 60 people, 300 fiscal groups (10 events each), in one transaction per person.
    for (let n = 0; n < 60; n++) {
      const records = Array.from({ length: 50 }, (_, i) => groupEvent(`group-${(n * 50 + i) % 300}`));
      await transactions.run((manager) => audit.record(manager, person(n), ...records));
    }
    await transactions.run((manager) =>
      audit.record(manager, client, {
        action: 'change-status',
        target: { type: 'order', id: 'ORD-1' },
        changes: { status: { before: 'ACCEPTED', after: 'READY' } },
      }),
    );
    // Raw SQL: the plans below depend on the table's statistics.
    await db.dataSource.query('VACUUM ANALYZE audit_event');
  });
  afterAll(() => db.close());

  it('lists newest first (at desc, id desc) with the exact total in the page envelope', async () => {
    const page = await service.list({ pageSize: 5 });
    expect(page).toMatchObject({ total: 3001, page: 1, pageSize: 5, totalPages: Math.ceil(3001 / 5) });
    expect(page.items[0]).toMatchObject({
      actor: { type: 'client', id: '7001', name: 'POS Quito' },
      action: 'change-status',
      target: { type: 'order', id: 'ORD-1' },
      changes: { status: { before: 'ACCEPTED', after: 'READY' } },
      requestId: 'req-pos',
      address: '198.51.100.2',
    });
    for (let i = 1; i < page.items.length; i++) {
      const [newer, older] = [page.items[i - 1]!, page.items[i]!];
      expect(newer.at >= older.at).toBe(true);
      if (newer.at === older.at) expect(BigInt(newer.id) > BigInt(older.id)).toBe(true);
    }
    expect(page.items[0]!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(await service.list({ page: 1000 })).toMatchObject({ items: [], total: 3001, totalPages: 151 });
  });

  it('filters by actor, target, action and time, combined', async () => {
    // The fill gives group-7 the events where (n * 50 + i) % 300 = 7: counted the same way here.
    const expected = Array.from({ length: 60 }, (_, n) => n).flatMap((n) =>
      Array.from({ length: 50 }, (_, i) => ((n * 50 + i) % 300 === 7 ? [n] : [])).flat(),
    );
    const byTarget = await service.list({ targetType: 'fiscal-group', targetId: 'group-7', pageSize: 100 });
    expect(byTarget.total).toBe(expected.length);
    expect(byTarget.items.map((event) => event.actor.id).sort()).toEqual(expected.map((n) => `user-${n}`).sort());

    expect((await service.list({ actorType: 'user', actorId: 'user-3' })).total).toBe(50);
    expect((await service.list({ actorType: 'client' })).total).toBe(1);
    expect((await service.list({ action: 'change-status', targetType: 'order' })).total).toBe(1);
    expect((await service.list({ actorId: 'user-3', targetId: 'group-150' })).total).toBe(1);

    const newest = (await service.list({ pageSize: 1 })).items[0]!;
    expect((await service.list({ from: newest.at })).items.map((event) => event.id)).toEqual([newest.id]);
    // `to` a millisecond before the newest event leaves it out; `from` after every event finds nothing.
    const before = new Date(Date.parse(newest.at) - 1).toISOString();
    expect((await service.list({ to: before, pageSize: 1 })).items[0]!.id).not.toBe(newest.id);
    expect((await service.list({ from: '2999-01-01T00:00:00Z' })).total).toBe(0);
  });

  it('reads a page of a target, an actor or everything from the index in list order, without a sequential scan', async () => {
    const repository = db.get(AuditEventsRepository);
    const plan = async (filter: Parameters<AuditEventsRepository['pageQuery']>[0]) => {
      const [text, params] = repository.pageQuery(filter, 1, 20).getQueryAndParameters();
      const [row] = await db.dataSource.query<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>(`EXPLAIN (FORMAT JSON) ${text}`, params);
      return flatten(row!['QUERY PLAN'][0]!.Plan);
    };
    const indexes = (nodes: PlanNode[]) => nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : []));
    const seqScans = (nodes: PlanNode[]) => nodes.filter((node) => node['Node Type'] === 'Seq Scan');

    const target = await plan({ targetType: 'fiscal-group', targetId: 'group-7' });
    expect(indexes(target)).toContain('ix_audit_event_target');
    expect(seqScans(target)).toEqual([]);
    const actor = await plan({ actorType: 'user', actorId: 'user-3' });
    expect(indexes(actor)).toContain('ix_audit_event_actor');
    expect(seqScans(actor)).toEqual([]);
    const everything = await plan({});
    expect(indexes(everything)).toContain('ix_audit_event_at');
    expect(seqScans(everything)).toEqual([]);
    // In list order already: no sort node.
    expect([...target, ...actor, ...everything].filter((node) => node['Node Type'] === 'Sort')).toEqual([]);
  });

  it('deletes only the events older than AUDIT_RETENTION_DAYS, through the trigger that refuses every other delete', async () => {
    const events = db.dataSource.getRepository(AuditEventEntity);
    const old = (days: number, id: string) => ({
      at: new Date(Date.now() - days * 86_400_000),
      actorType: 'user' as const,
      actorId: 'user-old',
      actorName: 'Former Person',
      action: 'update',
      targetType: 'fiscal-group',
      targetId: id,
      changes: {},
      requestId: null,
      address: null,
    });
    await events.insert([old(31, 'past-retention-1'), old(400, 'past-retention-2'), old(29, 'within-retention')]);
    const total = await events.count();

    const retention = new AuditRetention(db.config, db.get(AuditEventsRepository), transactions, db.get(JobRunner));
    expect(await retention.prune()).toBe(2);
    expect(await events.count()).toBe(total - 2);
    expect(await events.findBy({ actorId: 'user-old' })).toEqual([expect.objectContaining({ targetId: 'within-retention' })]);
    // The setting lasted only for the job's own transactions.
    await expect(db.dataSource.query(`DELETE FROM audit_event WHERE actor_id = 'user-old'`)).rejects.toThrow(/append-only/);
  });
});
