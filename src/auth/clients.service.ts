import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { ApiClientEntity } from './api-client.entity.js';
import { isScope, SCOPES, type Scope } from './scopes.js';
import { SecretHasher } from './secret-hasher.js';

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
  name: string;
  scopes: Scope[];
}

/** What the access guard needs of a token's client. */
export interface CurrentClient {
  active: boolean;
  name: string;
  scopes: Scope[];
}

/** How long a client's active flag is trusted before it is read again (deactivation reaches every instance within it). */
const ACTIVE_CACHE_TTL_MS = 5000;

@Injectable()
export class ClientsService {
  private readonly hasher = new SecretHasher();
  private readonly activeCache = new Map<string, { client: CurrentClient | undefined; until: number }>();

  constructor(
    @InjectRepository(ApiClientEntity) private readonly clients: Repository<ApiClientEntity>,
    private readonly numbered: ApiClientsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async create(input: { name: string; scopes: Scope[]; clientId?: string; clientSecret?: string }): Promise<CreatedClient> {
    const clientSecret = input.clientSecret ?? randomBytes(32).toString('base64url');
    const secretHash = await this.hasher.hash(clientSecret);
    const scopes = [...input.scopes];
    if (input.clientId) {
      await this.clients.insert({ clientId: input.clientId, name: input.name, scopes, secretHash, active: true });
      return { clientId: input.clientId, clientSecret, name: input.name, scopes: input.scopes };
    }
    // The next number of the sequence, one at a time (ids follow each other), skipping any id taken by hand (the bootstrap client, for one).
    let clientId: string | undefined;
    for (let tries = 0; clientId === undefined && tries < 1000; tries++) {
      clientId = await this.numbered.insertNumbered(input.name, secretHash, scopes);
    }
    if (clientId === undefined) throw new Error('could not allocate a client id');
    return { clientId, clientSecret, name: input.name, scopes: input.scopes };
  }

  list(): Promise<ApiClientEntity[]> {
    return this.clients.find({
      order: { createdAt: 'ASC' },
      select: { clientId: true, name: true, scopes: true, active: true, createdAt: true },
    });
  }

  /** The client when the id exists, is active and the secret matches; the hash runs in every case. */
  async verifyCredentials(clientId: string, clientSecret: string): Promise<ApiClientEntity | undefined> {
    const client = /^\d{1,20}$/.test(clientId) ? await this.clients.findOneBy({ clientId }) : null;
    const matches = await this.hasher.verify(clientSecret, client?.secretHash);
    return client && matches && client.active ? client : undefined;
  }

  /** The client as the guard trusts it: read again at most ACTIVE_CACHE_TTL_MS after the last read; undefined when unknown. */
  async current(clientId: string): Promise<CurrentClient | undefined> {
    const cached = this.activeCache.get(clientId);
    if (cached && cached.until > Date.now()) return cached.client;
    const found = await this.clients.findOne({ where: { clientId }, select: { active: true, clientId: true, name: true, scopes: true } });
    const client = found ? { active: found.active, name: found.name, scopes: found.scopes.filter(isScope) } : undefined;
    this.activeCache.set(clientId, { client, until: Date.now() + ACTIVE_CACHE_TTL_MS });
    return client;
  }

  async isActive(clientId: string): Promise<boolean> {
    return (await this.current(clientId))?.active ?? false;
  }

  async setActive(clientId: string, active: boolean): Promise<boolean> {
    const result = await this.clients.update({ clientId }, { active });
    this.activeCache.delete(clientId);
    return (result.affected ?? 0) > 0;
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
