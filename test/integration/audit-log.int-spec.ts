import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import type { AuditContext } from '../../src/audit/audit-event.types.js';
import { changedFields } from '../../src/audit/audit-changes.js';
import { AuditLog } from '../../src/audit/audit-log.js';
import { AuditModule } from '../../src/audit/audit.module.js';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

const context: AuditContext = {
  actor: { type: 'user', id: '0b7c2a52-2f0e-4f59-9c52-9a4c6a0d3c11', name: 'Ana Support' },
  requestId: 'req-audit-1',
  address: '203.0.113.7',
};

/** The audit log against the real database: events commit and roll back with their change, and stay as written. */
describe('AuditLog (integration)', () => {
  let db: IntegrationContext;
  let audit: AuditLog;
  let transactions: TransactionRunner;

  beforeAll(async () => {
    db = await bootIntegration({ imports: [AuditModule] });
    audit = db.get(AuditLog);
    transactions = db.get(TransactionRunner);
  });
  afterAll(() => db.close());

  const events = () => db.dataSource.getRepository(AuditEventEntity).find({ order: { id: 'ASC' } });

  it('records an event with its actor, request and changes, in the transaction of the change', async () => {
    await transactions.run((manager) =>
      audit.record(manager, context, {
        action: 'update',
        target: { type: 'fiscal-group', id: 'g-1' },
        changes: changedFields({ name: 'SP', uf: 'SP', secret: 'a' }, { name: 'SP Centro', uf: 'SP', secret: 'b' }, [
          'name',
          'uf',
          'secret',
        ]),
      }),
    );
    const [event] = await events();
    expect(event).toMatchObject({
      actorType: 'user',
      actorId: context.actor.id,
      actorName: 'Ana Support',
      action: 'update',
      targetType: 'fiscal-group',
      targetId: 'g-1',
      // Only the field that changed, and never a secret-like one.
      changes: { name: { before: 'SP', after: 'SP Centro' } },
      requestId: 'req-audit-1',
      address: '203.0.113.7',
    });
  });

  it('leaves no event when the change rolls back, and refuses to record outside a transaction', async () => {
    const before = (await events()).length;
    await expect(
      transactions.run(async (manager) => {
        await audit.record(manager, context, { action: 'delete', target: { type: 'client', id: '1002' } });
        throw new Error('the change fails after its event was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(await events()).toHaveLength(before);
    await expect(
      audit.record(db.dataSource.manager, context, { action: 'delete', target: { type: 'client', id: '1002' } }),
    ).rejects.toThrow(/transaction/);
  });

  it('keeps events as written: no update, no delete outside the retention', async () => {
    await expect(db.dataSource.query(`UPDATE audit_event SET action = 'forged'`)).rejects.toThrow(/append-only/);
    await expect(db.dataSource.query(`DELETE FROM audit_event`)).rejects.toThrow(/append-only/);
    expect((await events()).every((event) => event.action !== 'forged')).toBe(true);
  });
});
