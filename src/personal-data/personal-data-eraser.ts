import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuditLog } from '../audit/audit-log.js';
import type { AuditContext, AuditRecord } from '../audit/audit-event.types.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { OrdersRepository, type LockedPersonalDataHolder } from '../orders/orders.repository.js';
import type { PersonalDataErasureDto } from './dto/personal-data.dto.js';
import {
  PERSONAL_DATA_COPIES,
  PERSONAL_DATA_MARKER,
  type PersonalDataCopies,
  type PersonalDataScrubber,
} from './personal-data-copies.port.js';
import { PersonalDataKeys } from './personal-data-keys.js';
import type { PersonalDataReader } from './personal-values.js';

/** Orders read per round of an erasure; each is then erased in a transaction of its own. */
const ERASURE_BATCH = 100;
/**
 * Orders of one erasure request erased at once, each in its own transaction: a person's 100 orders took 100 commits one
 * after the other (docs/personal-data.md, "Figures"). Few enough to leave the pool's other connections to intake.
 */
const ERASURE_CONCURRENCY = 4;
/** Values shorter than this are left in free text (a receiver's answer): `12` would be replaced inside every amount. */
const MIN_TEXT_VALUE_LENGTH = 4;

/** What one order's erasure changed. */
export interface OrderErasure {
  payloadFields: number;
  enrichedPayloadFields: number;
  deliveryLogRows: number;
}

/**
 * Erases the personal data of orders: every personal field of the payload, the enriched payload (`sourceOrder` and the
 * new-order webhook's body included) and the webhook's copies is replaced by a marker, one order per transaction, so a
 * crash leaves each order either erased or untouched and a rerun finishes the rest. See docs/personal-data.md, "Erase".
 */
@Injectable()
export class PersonalDataEraser {
  private readonly reader: PersonalDataReader;

  constructor(
    private readonly orders: OrdersRepository,
    private readonly keys: PersonalDataKeys,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditLog,
    @Optional() @Inject(PERSONAL_DATA_COPIES) private readonly copies: PersonalDataCopies | null,
  ) {
    this.reader = keys.reader;
  }

  /** Every order holding `key`, erased; the counts of what changed (zero on a rerun). */
  async eraseKey(key: string, reason: string, audit: AuditContext): Promise<PersonalDataErasureDto> {
    const total: PersonalDataErasureDto = { orders: 0, erasedOrders: 0, payloadFields: 0, enrichedPayloadFields: 0, deliveryLogRows: 0 };
    // An erased order loses its keys: each round reads the orders still holding it, so a rerun starts where a crash stopped.
    for (;;) {
      const ids = await this.orders.personalDataHolderIds(key, ERASURE_BATCH);
      if (ids.length === 0) return total;
      for (const erasure of await this.eraseEach(ids, reason, audit, key)) {
        if (!erasure) continue;
        total.orders++;
        if (erasure.payloadFields + erasure.enrichedPayloadFields + erasure.deliveryLogRows > 0) total.erasedOrders++;
        total.payloadFields += erasure.payloadFields;
        total.enrichedPayloadFields += erasure.enrichedPayloadFields;
        total.deliveryLogRows += erasure.deliveryLogRows;
      }
    }
  }

  /**
   * `eraseOrder` for each id, ERASURE_CONCURRENCY transactions at a time: each order still has its own transaction, and
   * the waits of one (its statements' round trips, its commit) overlap the others' instead of adding up.
   */
  private async eraseEach(ids: readonly string[], reason: string, audit: AuditContext, key: string) {
    const erasures: Array<OrderErasure | undefined> = [];
    let next = 0;
    let failed = false;
    const worker = async () => {
      // After a failure no order is started (those under way end as they would): a rerun erases the rest.
      while (!failed && next < ids.length) {
        const index = next++;
        try {
          erasures[index] = await this.eraseOrder(ids[index]!, reason, audit, key);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(ERASURE_CONCURRENCY, ids.length) }, worker));
    return erasures;
  }

  /**
   * One order, in one transaction: locked, its documents and copies erased, its keys removed, audited (the counts and
   * the reason, never a value). Undefined when the order is gone or (with `key`) no longer holds it.
   */
  eraseOrder(id: string, reason: string, audit: AuditContext, key?: string): Promise<OrderErasure | undefined> {
    return this.transactions.run(async (manager) => {
      const holder = await this.orders.lockPersonalDataHolder(manager, id);
      if (!holder || (key !== undefined && !holder.keys.includes(key))) return undefined;
      const { erased, erasure, scrubber } = this.erasedDocuments(holder);
      erasure.deliveryLogRows = this.copies ? await this.copies.eraseIn(manager, id, scrubber) : 0;
      await this.orders.storeErasedDocuments(manager, id, erased);
      await this.audit.record(manager, audit, erasureEvent(holder.orderId, reason, erasure));
      return erasure;
    });
  }

  /**
   * The orders of `ids` still holding personal data, erased together in one transaction (all of them or, after a
   * failure or a crash, none): each in every copy and audited on its own, as `eraseOrder` does, with a few statements
   * for the whole batch instead of a few per order. For the retention job, whose orders are many; an erasure request
   * keeps one transaction per order. How many orders were erased.
   */
  eraseOrders(ids: readonly string[], reason: string, audit: AuditContext): Promise<number> {
    return this.transactions.run(async (manager) => {
      const holders = await this.orders.lockPersonalDataHolders(manager, ids);
      if (holders.length === 0) return 0;
      const erasures = holders.map((holder) => ({ holder, ...this.erasedDocuments(holder) }));
      const logRows = this.copies
        ? await this.copies.eraseInOrders(
            manager,
            erasures.map(({ holder, scrubber }) => ({ orderDbId: holder.id, scrub: scrubber })),
          )
        : new Map<string, number>();
      for (const { holder, erasure } of erasures) erasure.deliveryLogRows = logRows.get(holder.id) ?? 0;
      await this.orders.storeErasedDocumentsOfMany(
        manager,
        erasures.map(({ holder, erased }) => ({ id: holder.id, ...erased })),
      );
      await this.audit.record(manager, audit, ...erasures.map(({ holder, erasure }) => erasureEvent(holder.orderId, reason, erasure)));
      return holders.length;
    });
  }

  private erasedDocuments(holder: LockedPersonalDataHolder) {
    const values = [...this.reader.valuesOf(holder.payload), ...this.reader.valuesOf(holder.enrichedPayload)];
    const texts = [...new Set(values.map((value) => String(value.value)))]
      .filter((text) => text.length >= MIN_TEXT_VALUE_LENGTH && text !== PERSONAL_DATA_MARKER)
      .sort((a, b) => b.length - a.length);
    const scrubber: PersonalDataScrubber = {
      text: (text) => texts.reduce((result, value) => result.split(value).join(PERSONAL_DATA_MARKER), text),
      document: (document) => this.reader.erased(document, PERSONAL_DATA_MARKER).document,
    };
    const payload = this.reader.erased(holder.payload, PERSONAL_DATA_MARKER);
    const enriched = holder.enrichedPayload === null ? null : this.reader.erased(holder.enrichedPayload, PERSONAL_DATA_MARKER);
    const last = holder.webhookLastResponse;
    const erased = {
      payload: payload.document as Record<string, unknown>,
      enrichedPayload: (enriched?.document ?? null) as Record<string, unknown> | null,
      webhookLastResponse: last && { ...last, body: last.body === null ? null : scrubber.text(last.body) },
    };
    const erasure: OrderErasure = { payloadFields: payload.count, enrichedPayloadFields: enriched?.count ?? 0, deliveryLogRows: 0 };
    return { erased, erasure, scrubber };
  }
}

/** An order's erasure in the audit log: the reason and the counts per place, never a value. */
function erasureEvent(orderId: string, reason: string, erasure: OrderErasure): AuditRecord {
  return {
    action: 'order.personal-data.erase',
    target: { type: 'order', id: orderId },
    changes: {
      reason: { before: null, after: reason },
      payloadFields: { before: erasure.payloadFields, after: 0 },
      enrichedPayloadFields: { before: erasure.enrichedPayloadFields, after: 0 },
      deliveryLogRows: { before: erasure.deliveryLogRows, after: 0 },
    },
  };
}
