import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { EntityManager, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { uniqueViolation } from '../database/postgres-errors.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { ApiClientEntity } from './api-client.entity.js';
import { isScope, SCOPES, type Scope } from './scopes.js';
import { SecretHasher } from './secret-hasher.js';

/** A client as the service shows it: never its secret. `stores` empty: every store. */
export interface ClientRecord {
  clientId: string;
  name: string;
  scopes: Scope[];
  stores: string[];
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface CreatedClient extends ClientRecord {
  clientSecret: string;
}

/** What may change of a client; absent fields stay as they are. */
export interface ClientPatch {
  name?: string;
  scopes?: Scope[];
  stores?: string[];
  active?: boolean;
}

export interface RotatedSecret {
  clientId: string;
  clientSecret: string;
  /** Until when the replaced secret still works; null when it stopped at once. */
  previousSecretValidUntil: Date | null;
}

/** What the access guard needs of a token's client. */
export interface CurrentClient {
  active: boolean;
  name: string;
  scopes: Scope[];
  /** The stores it may touch; null: every store. */
  stores: string[] | null;
}

const RECORD_COLUMNS = { clientId: true, name: true, scopes: true, stores: true, active: true, createdAt: true, updatedAt: true } as const;

function recordOf(entity: ApiClientEntity): ClientRecord {
  return {
    clientId: entity.clientId,
    name: entity.name,
    scopes: entity.scopes.filter(isScope),
    stores: [...entity.stores],
    active: entity.active,
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
  };
}

/** A store-limited client cannot hold `admin`: administration is not about stores. See "Clients limited to stores" in docs/api-decisions.md. */
function checkStoresAndScopes(scopes: readonly Scope[], stores: readonly string[]): void {
  if (stores.length > 0 && scopes.includes('admin')) {
    throw ApiError.validation([{ field: 'stores', problem: 'a client limited to stores cannot hold the scope admin' }]);
  }
}

/** What a blank or space-padded store id is told (the request DTOs say the same). */
export const STORE_ID_PROBLEM = 'each value in stores must be a store id: not blank, without spaces at either end';

/**
 * The stores as stored: without repeats, in the order given. A blank or padded id is refused, never
 * trimmed away: dropping it could leave `[]`, which means every store.
 */
function normalizedStores(stores: readonly string[] | undefined): string[] {
  const list = stores ?? [];
  if (list.some((store) => store.length === 0 || store.trim() !== store)) {
    throw ApiError.validation([{ field: 'stores', problem: STORE_ID_PROBLEM }]);
  }
  return [...new Set(list)];
}

@Injectable()
export class ApiClientsService {
  private readonly hasher = new SecretHasher();
  private readonly currentCache = new Map<string, { client: CurrentClient | undefined; until: number }>();

  constructor(
    @InjectRepository(ApiClientEntity) private readonly clients: Repository<ApiClientEntity>,
    private readonly numbered: ApiClientsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** Creates a client (in `manager`'s transaction when given); its secret is in the answer only. */
  async create(
    input: { name: string; scopes: Scope[]; stores?: string[]; clientId?: string; clientSecret?: string },
    manager?: EntityManager,
  ): Promise<CreatedClient> {
    const stores = normalizedStores(input.stores);
    const scopes = [...new Set(input.scopes)];
    checkStoresAndScopes(scopes, stores);
    const clientSecret = input.clientSecret ?? newSecret();
    const secretHash = await this.hasher.hash(clientSecret);
    const repository = manager ? manager.getRepository(ApiClientEntity) : this.clients;
    let clientId = input.clientId;
    if (clientId) {
      try {
        await repository.insert({ clientId, name: input.name, scopes, stores, secretHash, active: true });
      } catch (error) {
        if (uniqueViolation(error) === 'uq_api_client_client_id') throw ApiError.conflict(`client id ${clientId} already exists`);
        throw error;
      }
    } else {
      // The next number of the sequence, one at a time (ids follow each other), skipping any id taken by hand (the bootstrap client, for one).
      for (let tries = 0; clientId === undefined && tries < 1000; tries++) {
        clientId = await this.numbered.insertNumbered(input.name, secretHash, scopes, stores, manager);
      }
      if (clientId === undefined) throw new Error('could not allocate a client id');
    }
    const created = await repository.findOneOrFail({ where: { clientId }, select: RECORD_COLUMNS });
    return { ...recordOf(created), clientSecret };
  }

  async list(): Promise<ClientRecord[]> {
    return (await this.clients.find({ order: { createdAt: 'ASC', clientId: 'ASC' }, select: RECORD_COLUMNS })).map(recordOf);
  }

  /** One page of the clients, oldest first, and how many there are. */
  async page(page: number, pageSize: number): Promise<{ items: ClientRecord[]; total: number }> {
    const [rows, total] = await this.clients.findAndCount({
      order: { createdAt: 'ASC', clientId: 'ASC' },
      select: RECORD_COLUMNS,
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    return { items: rows.map(recordOf), total };
  }

  async find(clientId: string): Promise<ClientRecord | undefined> {
    if (!/^\d{1,20}$/.test(clientId)) return undefined;
    const found = await this.clients.findOne({ where: { clientId }, select: RECORD_COLUMNS });
    return found ? recordOf(found) : undefined;
  }

  /**
   * Changes a client in `manager`'s transaction (its row locked); the client before and after, or
   * undefined when there is none. Every instance sees the change within AUTH_CACHE_SECONDS.
   */
  async update(
    manager: EntityManager,
    clientId: string,
    patch: ClientPatch,
  ): Promise<{ before: ClientRecord; after: ClientRecord } | undefined> {
    const locked = await this.locked(manager, clientId);
    if (!locked) return undefined;
    const before = recordOf(locked);
    const scopes = patch.scopes ? [...new Set(patch.scopes)] : before.scopes;
    const stores = patch.stores ? normalizedStores(patch.stores) : before.stores;
    checkStoresAndScopes(scopes, stores);
    await manager
      .getRepository(ApiClientEntity)
      .update({ clientId }, { name: patch.name ?? before.name, scopes, stores, active: patch.active ?? before.active });
    this.currentCache.delete(clientId);
    const after = recordOf(await manager.getRepository(ApiClientEntity).findOneOrFail({ where: { clientId }, select: RECORD_COLUMNS }));
    return { before, after };
  }

  /**
   * Gives the client a new secret in `manager`'s transaction. With `graceSeconds` the replaced
   * secret keeps working that long (for the credential routes), otherwise it stops at once.
   */
  async rotateSecret(manager: EntityManager, clientId: string, graceSeconds: number): Promise<RotatedSecret | undefined> {
    const locked = await this.locked(manager, clientId);
    if (!locked) return undefined;
    const clientSecret = newSecret();
    const previousSecretValidUntil = graceSeconds > 0 ? new Date(Date.now() + graceSeconds * 1000) : null;
    await manager.getRepository(ApiClientEntity).update(
      { clientId },
      {
        secretHash: await this.hasher.hash(clientSecret),
        previousSecretHash: previousSecretValidUntil ? locked.secretHash : null,
        previousSecretValidUntil,
      },
    );
    return { clientId, clientSecret, previousSecretValidUntil };
  }

  /** The client when the id exists, is active and the secret matches (or the replaced one, within its grace); the hash runs in every case. */
  async verifyCredentials(clientId: string, clientSecret: string): Promise<ClientRecord | undefined> {
    const client = /^\d{1,20}$/.test(clientId) ? await this.clients.findOneBy({ clientId }) : null;
    let matches = await this.hasher.verify(clientSecret, client?.secretHash);
    if (
      !matches &&
      client?.previousSecretHash &&
      client.previousSecretValidUntil &&
      client.previousSecretValidUntil.getTime() > Date.now()
    ) {
      matches = await this.hasher.verify(clientSecret, client.previousSecretHash);
    }
    return client && matches && client.active ? recordOf(client) : undefined;
  }

  /** The client as the guard trusts it: read again at most AUTH_CACHE_SECONDS after the last read; undefined when unknown. */
  async current(clientId: string): Promise<CurrentClient | undefined> {
    const cached = this.currentCache.get(clientId);
    if (cached && cached.until > Date.now()) return cached.client;
    const found = await this.clients.findOne({
      where: { clientId },
      select: { active: true, clientId: true, name: true, scopes: true, stores: true },
    });
    const client = found
      ? {
          active: found.active,
          name: found.name,
          scopes: found.scopes.filter(isScope),
          stores: found.stores.length > 0 ? found.stores : null,
        }
      : undefined;
    this.currentCache.set(clientId, { client, until: Date.now() + this.config.authCacheSeconds * 1000 });
    return client;
  }

  async isActive(clientId: string): Promise<boolean> {
    return (await this.current(clientId))?.active ?? false;
  }

  async setActive(clientId: string, active: boolean): Promise<boolean> {
    const result = await this.clients.update({ clientId }, { active });
    this.currentCache.delete(clientId);
    return (result.affected ?? 0) > 0;
  }

  private async locked(manager: EntityManager, clientId: string): Promise<ApiClientEntity | null> {
    if (!/^\d{1,20}$/.test(clientId)) return null;
    return manager.getRepository(ApiClientEntity).findOne({ where: { clientId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Outside production, a first start with no client creates the development client from the configuration. */
  async ensureBootstrapClient(): Promise<void> {
    if (this.config.isProduction) {
      // No well-known client in production: say how to make the first one.
      if ((await this.clients.count()) === 0) {
        this.logger.warn(
          { context: 'Auth' },
          'no API client exists yet: create the first one with `order-tax-cli clients:create --name ops --scopes admin,orders,platform` ' +
            '(in the image; `docker compose run --rm api-1 order-tax-cli ...` with compose, `npm run cli -- clients:create ...` from a checkout)',
        );
      }
      return;
    }
    const hash = await this.hasher.hash(this.config.bootstrapClientSecret);
    if (await this.numbered.insertIfNone(this.config.bootstrapClientId, 'Development client', hash, [...SCOPES])) {
      this.logger.warn(
        { context: 'Auth', clientId: this.config.bootstrapClientId, scopes: SCOPES },
        'created the development client from BOOTSTRAP_CLIENT_ID / BOOTSTRAP_CLIENT_SECRET (not done in production)',
      );
    }
  }
}

/** 256 random bits, URL-safe: shown once, stored only as its hash. */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
