import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { AuditEventsRepository } from '../../src/audit/audit-events.repository.js';
import { AuditModule } from '../../src/audit/audit.module.js';
import { AuditRetention } from '../../src/audit/audit-retention.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import { fiscalGroup, productCategory } from '../factories/index.js';
import { bootIntegration, FISCAL_LOOKUP_MODULES, type IntegrationContext } from '../support/integration.js';

const APPEND_ONLY_TABLES = ['audit_event', 'fiscal_group_revision', 'product_fiscal_category_history'];

/**
 * The append-only tables refuse `TRUNCATE` (which fires no row trigger, so the UPDATE/DELETE triggers never saw it);
 * the audit log's retention job still deletes what is past retention. Raw SQL: the test is about the database itself.
 */
describe('append-only tables refuse TRUNCATE (integration)', () => {
  let db: IntegrationContext;

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [AuditModule, ...FISCAL_LOOKUP_MODULES, FiscalGroupsModule, ProductCategoriesModule],
      env: { AUDIT_RETENTION_DAYS: '30' },
    });
    await db.get(JobRunner).stopAll();
    // One row in each table: a group's revision and a category's history row come from their triggers.
    await fiscalGroup(db.dataSource, { stores: ['truncate-store'] });
    await productCategory(db.dataSource, {});
    await db.dataSource.getRepository(AuditEventEntity).insert({
      at: new Date(),
      actorType: 'user',
      actorId: 'user-truncate',
      actorName: 'Person',
      action: 'update',
      targetType: 'fiscal-group',
      targetId: 'g',
      changes: {},
      requestId: null,
      address: null,
    });
  });
  afterAll(() => db.close());

  const rowCount = async (table: string) =>
    Number(((await db.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as Array<{ n: number }>)[0]!.n);

  it.each(APPEND_ONLY_TABLES)('refuses TRUNCATE %s and keeps its rows', async (table) => {
    const before = await rowCount(table);
    expect(before).toBeGreaterThan(0);
    await expect(db.dataSource.query(`TRUNCATE ${table}`)).rejects.toThrow(/append-only/);
    await expect(db.dataSource.query(`TRUNCATE ${table} CASCADE`)).rejects.toThrow(/append-only/);
    expect(await rowCount(table)).toBe(before);
  });

  it('refuses the append-only tables when named among others in one TRUNCATE', async () => {
    await expect(db.dataSource.query(`TRUNCATE status_alias, ${APPEND_ONLY_TABLES.join(', ')}`)).rejects.toThrow(/append-only/);
    for (const table of APPEND_ONLY_TABLES) expect(await rowCount(table)).toBeGreaterThan(0);
  });

  it('still lets the retention job delete the audit events past retention', async () => {
    const events = db.dataSource.getRepository(AuditEventEntity);
    await events.insert({
      at: new Date(Date.now() - 31 * 86_400_000),
      actorType: 'user',
      actorId: 'user-old',
      actorName: 'Former Person',
      action: 'update',
      targetType: 'fiscal-group',
      targetId: 'past-retention',
      changes: {},
      requestId: null,
      address: null,
    });
    const retention = new AuditRetention(db.config, db.get(AuditEventsRepository), db.get(TransactionRunner), db.get(JobRunner));
    expect(await retention.prune()).toBe(1);
    expect(await events.findBy({ actorId: 'user-old' })).toEqual([]);
    expect(await events.findBy({ actorId: 'user-truncate' })).toHaveLength(1);
  });
});
