import { Injectable } from '@nestjs/common';
import { OrdersRepository, type PersonalDataHolder } from '../orders/orders.repository.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import type {
  PersonalDataErasureDto,
  PersonalDataErasureRequestDto,
  PersonalDataFieldDto,
  PersonalDataLookupDto,
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
  ) {}

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

  private fieldsOf(holder: PersonalDataHolder): PersonalDataFieldDto[] {
    const reader = this.keys.reader;
    return [
      ...reader.valuesOf(holder.payload).map(({ path, value }) => ({ place: 'payload' as const, path, value })),
      ...reader.valuesOf(holder.enrichedPayload).map(({ path, value }) => ({ place: 'enrichedPayload' as const, path, value })),
    ];
  }
}
