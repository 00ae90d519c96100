import { jest } from '@jest/globals';
import { getRepositoryToken } from '@nestjs/typeorm';
import pg from 'pg';
import type { Repository } from 'typeorm';
import { AuditLog } from '../../src/audit/audit-log.js';
import { createRootLogger } from '../../src/common/logging/logger.js';
import { DATABASE_URL, DatabaseListener } from '../../src/database/database-listener.js';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { StatusAliasEntity } from '../../src/status-aliases/status-alias.entity.js';
import { StatusAliasesModule } from '../../src/status-aliases/status-aliases.module.js';
import { StatusAliasesService } from '../../src/status-aliases/status-aliases.service.js';
import { statusAlias } from '../factories/index.js';
import { bootIntegration, eventually, withTriggersDisabled, type IntegrationContext } from '../support/integration.js';
import { AUDIT } from '../support/audit.js';
import { AuditModule } from '../../src/audit/audit.module.js';

describe('StatusAliasesService (integration)', () => {
  let db: IntegrationContext;
  let service: StatusAliasesService;

  const emptyTable = () => db.dataSource.createQueryBuilder().delete().from(StatusAliasEntity).execute();

  beforeAll(async () => {
    db = await bootIntegration({ imports: [AuditModule, StatusAliasesModule] });
    service = db.get(StatusAliasesService);
  });
  afterAll(async () => {
    await db.close();
  });

  it('starts with the default aliases loaded by the migration', async () => {
    expect(await service.list()).toContainEqual({ label: 'Por Asignar', status: 'READY' });
    expect(await service.resolve('por_asignar')).toBe('READY');
  });

  describe('list', () => {
    it('lists the aliases by status, then label', async () => {
      await emptyTable();
      await statusAlias(db.dataSource, { label: 'Zeta', status: 'ACCEPTED' });
      await statusAlias(db.dataSource, { label: 'Listo', status: 'READY' });
      await statusAlias(db.dataSource, { label: 'Alfa', status: 'ACCEPTED' });
      await statusAlias(db.dataSource, { label: 'Anulado', status: 'CANCELLED' });
      expect(await service.list()).toEqual([
        { label: 'Alfa', status: 'ACCEPTED' },
        { label: 'Zeta', status: 'ACCEPTED' },
        { label: 'Anulado', status: 'CANCELLED' },
        { label: 'Listo', status: 'READY' },
      ]);
    });
  });

  describe('resolve', () => {
    beforeAll(async () => {
      await service.replace(
        [
          { label: 'Pedido Recibido', status: 'ACCEPTED' },
          { label: 'En Preparación', status: 'IN_PREPARATION' },
        ],
        AUDIT,
      );
    });

    it.each([
      ['a status value in any case and spacing', ' in preparation ', 'IN_PREPARATION'],
      ['an alias as stored', 'Pedido Recibido', 'ACCEPTED'],
      ['an alias with other case, separators and spaces', ' PEDIDO_recibido ', 'ACCEPTED'],
      ['an alias without its accent', 'en-preparacion', 'IN_PREPARATION'],
    ])('resolves %s', async (_label, label, status) => {
      expect(await service.resolve(label)).toBe(status);
    });

    it('resolves nothing for a label that is neither', async () => {
      expect(await service.resolve('Pedido Enviado')).toBeUndefined();
    });

    it('sees a row written by anyone else once its notification arrives (cached table dropped by NOTIFY)', async () => {
      // Deterministic: the context's start awaited the service's LISTEN (its onModuleInit), so the notification is heard.
      expect(await service.resolve('Listo Para Retirar')).toBeUndefined();
      // Written beside the service, as another instance or a script would.
      await statusAlias(db.dataSource, { label: 'Listo para retirar', status: 'READY' });
      await eventually(async () => expect(await service.resolve('listo para retirar')).toBe('READY'));
    });
  });

  describe('before its LISTEN is active', () => {
    /** Holds every `LISTEN` back until `release()`, as a slow listening connection would (the SQL still runs, later). */
    function holdListens(): { release(): void } {
      let open!: () => void;
      const opened = new Promise<void>((done) => (open = done));
      const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
      const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        if (typeof args[0] === 'string' && args[0].startsWith('LISTEN ')) return opened.then(() => query.apply(this, args));
        return query.apply(this, args);
      } as never);
      return {
        release: () => {
          spy.mockRestore();
          open();
        },
      };
    }

    it('does not cache the table until it listens, so a row written meanwhile is seen', async () => {
      // A listener of its own, connected and listening to nothing yet (the context's already listens to the channel).
      const listener = new DatabaseListener(db.get<string>(DATABASE_URL), createRootLogger('silent'));
      await listener.onModuleInit();
      const held = holdListens();
      try {
        const late = new StatusAliasesService(
          db.get<Repository<StatusAliasEntity>>(getRepositoryToken(StatusAliasEntity)),
          db.get(TransactionRunner),
          listener,
          db.get(AuditLog),
        );
        const listening = late.onModuleInit();
        expect(await late.resolve('Pronto Agora')).toBeUndefined();
        // Its notification is sent before the LISTEN runs: only a table read again (not cached meanwhile) shows the row.
        await statusAlias(db.dataSource, { label: 'Pronto agora', status: 'READY' });
        held.release();
        await listening;
        await eventually(async () => expect(await late.resolve('pronto agora')).toBe('READY'), { timeoutMs: 3000 });
      } finally {
        held.release();
        await listener.onApplicationShutdown();
      }
    });
  });

  describe('replace', () => {
    it('replaces the whole table, trims labels and answers the new list', async () => {
      await statusAlias(db.dataSource, { label: 'Old Label', status: 'DELIVERED' });
      const answered = await service.replace(
        [
          { label: '  Entregue  ', status: 'DELIVERED' },
          { label: 'A Caminho', status: 'DISPATCHED' },
        ],
        AUDIT,
      );
      expect(answered).toEqual([
        { label: 'Entregue', status: 'DELIVERED' },
        { label: 'A Caminho', status: 'DISPATCHED' },
      ]);
      expect(await service.list()).toEqual(answered);
    });

    it('resolves with the new table at once, without waiting for NOTIFY', async () => {
      await service.replace([{ label: 'Old Label', status: 'DELIVERED' }], AUDIT);
      await db.settleNotifications();
      await withTriggersDisabled(db.dataSource, ['status_alias.trg_status_alias_changed'], async () => {
        expect(await service.resolve('old label')).toBe('DELIVERED'); // the table is cached now
        await service.replace([{ label: 'Entregue', status: 'DELIVERED' }], AUDIT);
        expect(await service.resolve('old label')).toBeUndefined();
        expect(await service.resolve('entregue')).toBe('DELIVERED');
      });
    });

    it('refuses labels that are status values or match each other, listing every problem; nothing changes', async () => {
      const before = await service.list();
      await expect(
        service.replace(
          [
            { label: 'Por Asignar', status: 'READY' },
            { label: 'Ready ', status: 'READY' },
            { label: 'por_asignar', status: 'DISPATCHED' },
          ],
          AUDIT,
        ),
      ).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        details: [
          { field: 'aliases.1.label', problem: 'matches the status value READY itself' },
          { field: 'aliases.2.label', problem: 'matches the same labels as aliases.0 ("Por Asignar")' },
        ],
      });
      expect(await service.list()).toEqual(before);
    });

    it('refuses a label that is empty once matched (only spaces, "_" and "-"); nothing changes', async () => {
      const before = await service.list();
      await expect(
        service.replace(
          [
            { label: 'Listo', status: 'READY' },
            { label: ' - ', status: 'CANCELLED' },
            { label: '_', status: 'DELIVERED' },
          ],
          AUDIT,
        ),
      ).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        details: [
          { field: 'aliases.1.label', problem: 'is empty once spaces, "_" and "-" are set aside' },
          { field: 'aliases.2.label', problem: 'is empty once spaces, "_" and "-" are set aside' },
        ],
      });
      expect(await service.list()).toEqual(before);
      expect(await service.resolve('-')).toBeUndefined();
    });

    it('empties the table with an empty list', async () => {
      expect(await service.replace([], AUDIT)).toEqual([]);
      expect(await db.dataSource.getRepository(StatusAliasEntity).count()).toBe(0);
    });
  });

  describe('unknownLabel', () => {
    it('is a 400 naming the label, every status and every alias', async () => {
      await service.replace([{ label: 'Anulada', status: 'CANCELLED' }], AUDIT);
      const error = await service.unknownLabel('Perdido', 'trackingStatus');
      expect(error).toMatchObject({ status: 400, details: [{ field: 'trackingStatus', problem: error.message }] });
      expect(error.message).toBe(
        'trackingStatus "Perdido" is neither an order status (RECEIVED, ENRICHED, ENRICHMENT_FAILED, FORWARDED, FORWARD_FAILED, ' +
          'ACCEPTED, IN_PREPARATION, READY, DISPATCHED, DELIVERED, CANCELLED, REJECTED) nor a known alias (Anulada); ' +
          'aliases are managed with GET/PUT /api/admin/status-aliases',
      );
    });

    it('says "none" when there is no alias', async () => {
      await service.replace([], AUDIT);
      expect((await service.unknownLabel('x')).message).toContain('nor a known alias (none)');
    });
  });
});
