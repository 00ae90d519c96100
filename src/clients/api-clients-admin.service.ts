import { Injectable } from '@nestjs/common';
import { changedFields } from '../audit/audit-changes.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { ApiClientsService, type ClientRecord } from '../auth/api-clients.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { pageOf } from '../common/http/pagination.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import {
  toClientDto,
  type ClientDto,
  type ClientPageDto,
  type CreateClientDto,
  type CreatedClientDto,
  type RotatedSecretDto,
  type UpdateClientDto,
} from './dto/client.dto.js';

/** The fields of a client the audit log compares (never the secret). */
const AUDITED_FIELDS: ReadonlyArray<keyof ClientRecord & string> = ['name', 'scopes', 'stores', 'active'];

/**
 * Client management (over HTTP and with the CLI): each change and its audit event in one transaction. The rows are
 * the auth module's (it owns `api_client`); a secret appears only in the create and rotate answers.
 */
@Injectable()
export class ApiClientsAdminService {
  constructor(
    private readonly clients: ApiClientsService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditLog,
  ) {}

  async page(page: number, pageSize: number): Promise<ClientPageDto> {
    const found = await this.clients.page(page, pageSize);
    return pageOf(found.items.map(toClientDto), found.total, page, pageSize);
  }

  async get(clientId: string): Promise<ClientDto> {
    const client = await this.clients.find(clientId);
    if (!client) throw notFound(clientId);
    return toClientDto(client);
  }

  /** `clientId` chooses the id (the CLI's `--id`); the API always takes the next number. */
  async create(body: CreateClientDto & { clientId?: string }, context: AuditContext): Promise<CreatedClientDto> {
    return this.transactions.run(async (manager) => {
      const created = await this.clients.create(
        { name: body.name, scopes: body.scopes, stores: body.stores, clientId: body.clientId },
        manager,
      );
      await this.audit.record(manager, context, {
        action: 'create',
        target: { type: 'client', id: created.clientId },
        changes: changedFields(undefined, created, AUDITED_FIELDS),
      });
      return { ...toClientDto(created), secret: created.clientSecret };
    });
  }

  async update(clientId: string, body: UpdateClientDto, context: AuditContext): Promise<ClientDto> {
    return this.transactions.run(async (manager) => {
      const changed = await this.clients.update(manager, clientId, body);
      if (!changed) throw notFound(clientId);
      const changes = changedFields(changed.before, changed.after, AUDITED_FIELDS);
      if (Object.keys(changes).length > 0) {
        await this.audit.record(manager, context, { action: 'update', target: { type: 'client', id: clientId }, changes });
      }
      return toClientDto(changed.after);
    });
  }

  async rotateSecret(clientId: string, graceSeconds: number, context: AuditContext): Promise<RotatedSecretDto> {
    return this.transactions.run(async (manager) => {
      const rotated = await this.clients.rotateSecret(manager, clientId, graceSeconds);
      if (!rotated) throw notFound(clientId);
      const validUntil = rotated.previousSecretValidUntil?.toISOString() ?? null;
      // Only until when the replaced one works: never a secret or its hash.
      await this.audit.record(manager, context, {
        action: 'rotate-secret',
        target: { type: 'client', id: clientId },
        changes: { graceUntil: { before: null, after: validUntil } },
      });
      return { clientId, secret: rotated.clientSecret, previousSecretValidUntil: validUntil };
    });
  }
}

function notFound(clientId: string): ApiError {
  return ApiError.notFound(`Client ${clientId} not found`);
}
