import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { ApiClientEntity } from '../../src/auth/api-client.entity.js';
import { AuthModule } from '../../src/auth/auth.module.js';
import { ApiClientsService } from '../../src/auth/api-clients.service.js';
import { createRootLogger } from '../../src/common/logging/logger.js';
import { apiClient } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';
import { BOOTSTRAP_ID, BOOTSTRAP_SECRET } from '../support/test-app.js';

describe('ApiClientsService (integration)', () => {
  let db: IntegrationContext;
  let service: ApiClientsService;

  const stored = (clientId: string) => db.dataSource.getRepository(ApiClientEntity).findOneByOrFail({ clientId });
  /** The id the sequence gives next (a sequence, read as PostgreSQL holds it: no entity maps it). */
  const nextSequenceId = async () => {
    const [{ last_value, is_called }] = await db.dataSource.query('SELECT last_value, is_called FROM api_client_number_seq');
    return Number(last_value) + (is_called ? 1 : 0);
  };

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [AuthModule],
      env: { BOOTSTRAP_CLIENT_ID: BOOTSTRAP_ID, BOOTSTRAP_CLIENT_SECRET: BOOTSTRAP_SECRET },
    });
    service = db.get(ApiClientsService);
  });
  afterAll(async () => {
    await db.close();
  });

  describe('ensureBootstrapClient (outside production)', () => {
    it('creates the development client with every scope when no client exists, once', async () => {
      expect(await db.dataSource.getRepository(ApiClientEntity).count()).toBe(0);
      await service.ensureBootstrapClient();
      await service.ensureBootstrapClient();
      const clients = await service.list();
      expect(clients.map(({ clientId, name, scopes }) => ({ clientId, name, scopes }))).toEqual([
        { clientId: BOOTSTRAP_ID, name: 'Development client', scopes: ['admin', 'orders', 'platform'] },
      ]);
      expect((await service.verifyCredentials(BOOTSTRAP_ID, BOOTSTRAP_SECRET))?.clientId).toBe(BOOTSTRAP_ID);
    });

    it('creates nothing when some client exists, even after the development client is gone', async () => {
      await db.dataSource.getRepository(ApiClientEntity).delete({ clientId: BOOTSTRAP_ID });
      await apiClient(db.dataSource);
      await service.ensureBootstrapClient();
      expect(await db.dataSource.getRepository(ApiClientEntity).countBy({ clientId: BOOTSTRAP_ID })).toBe(0);
    });
  });

  describe('ensureBootstrapClient (production)', () => {
    it('creates no client and says how to create the first one', async () => {
      const lines: string[] = [];
      const destination = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          lines.push(chunk.toString());
          done();
        },
      });
      const production = await bootIntegration({
        imports: [AuthModule],
        env: { NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('hex'), PERSONAL_DATA_KEY: randomBytes(32).toString('hex') },
        logger: createRootLogger('warn', destination),
      });
      try {
        await production.get(ApiClientsService).ensureBootstrapClient();
        expect(await production.dataSource.getRepository(ApiClientEntity).count()).toBe(0);
        expect(lines.map((line) => (JSON.parse(line) as { msg?: string }).msg)).toEqual([
          expect.stringContaining('no API client exists yet'),
        ]);
        expect(lines[0]).toContain('order-tax-cli clients:create');
      } finally {
        await production.close();
      }
    });
  });

  describe('create', () => {
    it('takes the next number of the sequence as id, and stores only a salted hash of the generated secret', async () => {
      const expectedId = await nextSequenceId();
      const created = await service.create({ name: 'POS Pinheiros', scopes: ['orders'] });
      expect(created).toEqual({
        clientId: String(expectedId),
        clientSecret: expect.any(String),
        name: 'POS Pinheiros',
        scopes: ['orders'],
        stores: [],
        active: true,
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(created.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const row = await stored(created.clientId);
      expect(row).toMatchObject({ name: 'POS Pinheiros', scopes: ['orders'], active: true });
      expect(row.secretHash).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(row.secretHash).not.toContain(created.clientSecret);

      const second = await service.create({ name: 'POS Moema', scopes: ['orders', 'platform'] });
      expect(Number(second.clientId)).toBe(expectedId + 1);
      // Two clients with the same secret text would still have different hashes (salted).
      const third = await service.create({ name: 'Same secret', scopes: ['orders'], clientSecret: created.clientSecret });
      expect((await stored(third.clientId)).secretHash).not.toBe(row.secretHash);
    });

    it('skips an id someone took by hand', async () => {
      const next = await nextSequenceId();
      await apiClient(db.dataSource, { clientId: String(next) });
      const created = await service.create({ name: 'After the taken one', scopes: ['admin'] });
      expect(created.clientId).toBe(String(next + 1));
    });

    it('refuses a blank or space-padded store id, whoever calls (not only the API), rather than drop it and leave every store', async () => {
      const refusal = { status: 400, details: [{ field: 'stores', problem: expect.stringContaining('not blank') }] };
      for (const stores of [[' '], ['162', ''], [' 162']]) {
        await expect(service.create({ name: 'Blank store', scopes: ['orders', 'admin'], stores })).rejects.toMatchObject(refusal);
      }
      expect(await db.dataSource.getRepository(ApiClientEntity).countBy({ name: 'Blank store' })).toBe(0);

      const limited = await service.create({ name: 'POS 162', scopes: ['orders'], stores: ['162', '162'] });
      expect(limited.stores).toEqual(['162']);
      await expect(
        db.dataSource.transaction((manager) => service.update(manager, limited.clientId, { stores: [' '] })),
      ).rejects.toMatchObject(refusal);
      expect((await stored(limited.clientId)).stores).toEqual(['162']);
    });

    it('uses the given id and secret', async () => {
      const created = await service.create({ name: 'Given', scopes: ['platform'], clientId: '424242', clientSecret: 'given-secret' });
      expect(created).toMatchObject({ clientId: '424242', clientSecret: 'given-secret', name: 'Given', scopes: ['platform'], stores: [] });
      expect((await service.verifyCredentials('424242', 'given-secret'))?.name).toBe('Given');
    });
  });

  describe('list', () => {
    it('lists the clients oldest first, without their secret hashes', async () => {
      await db.dataSource.createQueryBuilder().delete().from(ApiClientEntity).execute();
      const newer = await apiClient(db.dataSource, { name: 'Newer', createdAt: new Date('2026-02-01T00:00:00Z') });
      const older = await apiClient(db.dataSource, { name: 'Older', createdAt: new Date('2026-01-01T00:00:00Z'), active: false });
      const clients = await service.list();
      expect(clients.map((client) => client.clientId)).toEqual([older.clientId, newer.clientId]);
      expect(clients[0]).toEqual({
        clientId: older.clientId,
        name: 'Older',
        scopes: ['orders'],
        stores: [],
        active: false,
        createdAt: new Date('2026-01-01T00:00:00Z'),
        updatedAt: expect.any(Date),
      });
    });
  });

  describe('verifyCredentials', () => {
    it('answers the client for its secret, and nothing for a wrong secret, an unknown id or a malformed id', async () => {
      const client = await apiClient(db.dataSource, { clientSecret: 'right-secret', scopes: ['admin', 'orders'] });
      expect(await service.verifyCredentials(client.clientId, 'right-secret')).toMatchObject({
        clientId: client.clientId,
        scopes: ['admin', 'orders'],
      });
      expect(await service.verifyCredentials(client.clientId, 'wrong-secret')).toBeUndefined();
      expect(await service.verifyCredentials('99999999', 'right-secret')).toBeUndefined();
      expect(await service.verifyCredentials(`${client.clientId}' OR '1'='1`, 'right-secret')).toBeUndefined();
    });

    it('answers nothing for a deactivated client, even with its secret', async () => {
      const client = await apiClient(db.dataSource, { clientSecret: 'still-right', active: false });
      expect(await service.verifyCredentials(client.clientId, 'still-right')).toBeUndefined();
    });
  });

  describe('isActive and setActive', () => {
    it('reads the active flag, false for an unknown client', async () => {
      const active = await apiClient(db.dataSource);
      const inactive = await apiClient(db.dataSource, { active: false });
      expect(await service.isActive(active.clientId)).toBe(true);
      expect(await service.isActive(inactive.clientId)).toBe(false);
      expect(await service.isActive('123456789')).toBe(false);
    });

    it('trusts a read flag for a few seconds, but setActive takes effect at once', async () => {
      const client = await apiClient(db.dataSource);
      expect(await service.isActive(client.clientId)).toBe(true);
      // Changed beside this instance (another instance, the CLI): not seen before the cache expires.
      await db.dataSource.getRepository(ApiClientEntity).update({ clientId: client.clientId }, { active: false });
      expect(await service.isActive(client.clientId)).toBe(true);
      // Through this instance: seen at once, in both directions.
      expect(await service.setActive(client.clientId, false)).toBe(true);
      expect(await service.isActive(client.clientId)).toBe(false);
      expect(await service.setActive(client.clientId, true)).toBe(true);
      expect(await service.isActive(client.clientId)).toBe(true);
      expect((await stored(client.clientId)).active).toBe(true);
    });

    it('setActive answers false for an unknown client', async () => {
      expect(await service.setActive('123456789', false)).toBe(false);
    });
  });
});
