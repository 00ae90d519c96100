import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { changedFields } from '../audit/audit-changes.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { DatabaseListener } from '../database/database-listener.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { ORDER_STATUSES, type OrderStatus } from '../orders/order-status.js';
import type { StatusAliasDto } from './dto/status-aliases.dto.js';
import { StatusAliasEntity } from './status-alias.entity.js';
import { canonicalStatusOf, matchKey, resolveStatusLabel } from './status-match.js';

export const STATUS_ALIASES_CHANNEL = 'status_aliases_changed';
export const STATUS_ALIASES_ROUTE = 'GET/PUT /api/admin/status-aliases';

/**
 * The status vocabulary: order status values, then the alias table. The table
 * is cached whole and dropped on every instance when it changes (NOTIFY from a trigger), like
 * the fiscal lookups; without the listener it is read on every use.
 */
@Injectable()
export class StatusAliasesService implements OnModuleInit {
  private cached?: Promise<Map<string, OrderStatus>>;
  private caching = false;

  constructor(
    @InjectRepository(StatusAliasEntity) private readonly aliases: Repository<StatusAliasEntity>,
    private readonly transactions: TransactionRunner,
    private readonly listener: DatabaseListener,
    private readonly audit: AuditLog,
  ) {}

  /** The table is cached only once its channel is listened to (the listener's first `onReset()`): see DatabaseListener.subscribe. */
  async onModuleInit(): Promise<void> {
    await this.listener.subscribe(STATUS_ALIASES_CHANNEL, {
      onNotification: () => (this.cached = undefined),
      onReset: () => {
        this.cached = undefined;
        this.caching = this.listener.isConnected;
      },
    });
  }

  /** The order status a received label means, or undefined. */
  async resolve(label: string, inTransaction?: EntityManager): Promise<OrderStatus | undefined> {
    const direct = canonicalStatusOf(label);
    if (direct) return direct;
    return resolveStatusLabel(label, await this.table(inTransaction));
  }

  /** The 400 of a label that means no status, listing what is accepted. */
  async unknownLabel(label: string, field = 'status'): Promise<ApiError> {
    const labels = (await this.list()).map((alias) => alias.label);
    const message =
      `${field} "${label}" is neither an order status (${ORDER_STATUSES.join(', ')}) nor a known alias ` +
      `(${labels.join(', ') || 'none'}); aliases are managed with ${STATUS_ALIASES_ROUTE}`;
    return ApiError.badRequest(message, field);
  }

  async list(): Promise<StatusAliasDto[]> {
    return listed(await this.aliases.find(LIST_ORDER));
  }

  /**
   * Replaces the whole table in one transaction; 400 listing every problem, nothing changed. Concurrent
   * replacements run one after the other, the last one's table is kept; each answers the table it stored.
   */
  async replace(aliases: StatusAliasDto[], audit: AuditContext): Promise<StatusAliasDto[]> {
    const problems: ErrorDetail[] = [];
    const seen = new Map<string, number>();
    aliases.forEach((alias, index) => {
      const key = matchKey(alias.label);
      // Such a label is empty once matched: it would match a status sent as "-", "_" or blank.
      if (key === '') {
        problems.push({ field: `aliases.${index}.label`, problem: 'is empty once spaces, "_" and "-" are set aside' });
        return;
      }
      const canonical = canonicalStatusOf(alias.label);
      if (canonical) problems.push({ field: `aliases.${index}.label`, problem: `matches the status value ${canonical} itself` });
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push({
          field: `aliases.${index}.label`,
          problem: `matches the same labels as aliases.${earlier} ("${aliases[earlier]!.label}")`,
        });
      } else seen.set(key, index);
    });
    if (problems.length > 0) throw ApiError.validation(problems);
    // A row lock would lock nothing on an empty table, and two replacements would then insert the same labels.
    const stored = await this.transactions.runLocked('statusAliasesReplacement', async (manager) => {
      const before = sortedAliases(await manager.find(StatusAliasEntity));
      await manager.createQueryBuilder().delete().from(StatusAliasEntity).execute();
      if (aliases.length > 0) {
        await manager.insert(
          StatusAliasEntity,
          aliases.map((alias) => ({ matchKey: matchKey(alias.label), label: alias.label.trim(), status: alias.status })),
        );
      }
      const after = sortedAliases(aliases.map((alias) => ({ label: alias.label.trim(), status: alias.status })));
      // The whole (small) table before and after, recorded only when the replacement changed it.
      const changes = changedFields({ aliases: before }, { aliases: after }, ['aliases']);
      if (Object.keys(changes).length > 0) {
        await this.audit.record(manager, audit, { action: 'replace', target: { type: 'status-aliases', id: 'all' }, changes });
      }
      return listed(await manager.find(StatusAliasEntity, LIST_ORDER));
    });
    this.cached = undefined;
    return stored;
  }

  private table(inTransaction?: EntityManager): Promise<Map<string, OrderStatus>> {
    const load = async () => {
      const rows = inTransaction ? await inTransaction.find(StatusAliasEntity) : await this.aliases.find();
      return new Map(rows.map((row) => [row.matchKey, row.status]));
    };
    if (!this.caching) return load();
    const loading = (this.cached ??= load());
    loading.catch(() => (this.cached = undefined));
    return loading;
  }
}

const LIST_ORDER = { order: { status: 'ASC', label: 'ASC' } } as const;

function listed(rows: readonly StatusAliasEntity[]): StatusAliasDto[] {
  return rows.map((row) => ({ label: row.label, status: row.status }));
}

/** Aliases as the audit log compares them: label and status, in the list's order. */
function sortedAliases(rows: ReadonlyArray<{ label: string; status: OrderStatus }>): StatusAliasDto[] {
  return rows
    .map((row) => ({ label: row.label, status: row.status }))
    .sort((a, b) => a.status.localeCompare(b.status) || a.label.localeCompare(b.label));
}
