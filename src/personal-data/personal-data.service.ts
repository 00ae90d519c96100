import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit-log.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/http/uuid.pipe.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { OrderReadsRepository } from '../orders/order-reads.repository.js';
import { OrdersRepository, type PersonalDataHolder } from '../orders/orders.repository.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import type {
  PersonalDataErasureDto,
  PersonalDataErasureRequestDto,
  PersonalDataFieldDto,
  PersonalDataLookupDto,
  PersonalDataOrderDto,
  PersonalDataSubjectQuery,
} from './dto/personal-data.dto.js';
import { PersonalDataEraser } from './personal-data-eraser.js';
import { PersonalDataKeys } from './personal-data-keys.js';
import { subjectOf } from './personal-data-subject.js';

/** At most this many orders in one lookup's answer: the answer stays bounded whatever a person ordered. */
export const LOOKUP_MAX_ORDERS = 500;

/** Finding a person's orders and the personal fields they hold (docs/personal-data.md, "Find and copy"). */
@Injectable()
export class PersonalDataService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly keys: PersonalDataKeys,
    private readonly eraser: PersonalDataEraser,
    private readonly reads: OrderReadsRepository,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditLog,
  ) {}

  /**
   * One order's personal fields in full, for an admin who asked to see them: recorded in the audit log (who, when,
   * which paths; never a value) before they are answered. See "Who sees it" in docs/personal-data.md.
   */
  async reveal(idOrOrderId: string, audit: AuditContext): Promise<PersonalDataOrderDto> {
    if (idOrOrderId.length > 100) throw ApiError.badRequest('id must be a UUID or an orderId of at most 100 characters', 'id');
    const order = await this.reads.detail(idOrOrderId, isUuid(idOrOrderId));
    if (!order) throw ApiError.notFound(`No order has the id or orderId ${idOrOrderId}`);
    const fields = this.fieldsOf({ payload: order.payload, enrichedPayload: order.enrichedPayload });
    await this.transactions.run((manager) =>
      this.audit.record(manager, audit, {
        action: 'order.personal-data.reveal',
        target: { type: 'order', id: order.orderId },
        changes: { revealedPaths: { before: null, after: fields.map((field) => `${field.place}.${field.path}`) } },
      }),
    );
    return { id: order.id, orderId: order.orderId, status: order.status, createdAt: String(order.createdAt), fields };
  }

  /** Erases the person's data from every order holding it (one transaction per order; a rerun erases what is left). */
  erase(request: PersonalDataErasureRequestDto, audit: AuditContext): Promise<PersonalDataErasureDto> {
    const subject = subjectOf(request);
    return this.eraser.eraseKey(this.keys.keyOf(subject.kind, subject.value), request.reason, audit);
  }

  async lookup(query: PersonalDataSubjectQuery): Promise<PersonalDataLookupDto> {
    const subject = subjectOf(query);
    const key = this.keys.keyOf(subject.kind, subject.value);
    const holders = await this.orders.personalDataHolders(key, LOOKUP_MAX_ORDERS + 1);
    return {
      orders: holders.slice(0, LOOKUP_MAX_ORDERS).map((holder) => ({
        id: holder.id,
        orderId: holder.orderId,
        status: holder.status,
        createdAt: holder.createdAt.toISOString(),
        fields: this.fieldsOf(holder),
      })),
      truncated: holders.length > LOOKUP_MAX_ORDERS,
      fieldLists: this.keys.fieldLists.map(({ shape, fields }) => ({ shape, fields: [...fields] })),
    };
  }

  private fieldsOf(holder: Pick<PersonalDataHolder, 'payload' | 'enrichedPayload'>): PersonalDataFieldDto[] {
    const reader = this.keys.reader;
    return [
      ...reader.valuesOf(holder.payload).map(({ path, value }) => ({ place: 'payload' as const, path, value })),
      ...reader.valuesOf(holder.enrichedPayload).map(({ path, value }) => ({ place: 'enrichedPayload' as const, path, value })),
    ];
  }
}
