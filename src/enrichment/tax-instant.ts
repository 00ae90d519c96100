import { parseOffsetDateTime } from '../common/iso-date-time.js';
import type { TaxEngineResult, TaxSummary } from '../tax-engine/tax-engine.js';

/** Which revision of which group taxed an order, and at what instant (`taxSummary.fiscalDocument`). */
export interface FiscalDocument {
  /** Null for a group without revisions (written outside the service). */
  revision: number | null;
  taxInstant: string;
}

/** How far before its receipt an order's own `createdAt` is believed. */
export const CREATED_AT_BEFORE_RECEIPT_MS = 24 * 60 * 60 * 1000;
/** How far after its receipt (a sender's clock running ahead) an order's own `createdAt` is believed. */
export const CREATED_AT_AFTER_RECEIPT_MS = 5 * 60 * 1000;

/**
 * The instant whose fiscal group revision taxes an order: the payload's `createdAt` when it is a valid date-time
 * with its UTC offset from 24 hours before the receipt to 5 minutes after it, else the receipt. A re-send keeps the
 * first receipt's (the stored one). See "Which revision taxes an order" in docs/fiscal-configuration-over-time.md.
 */
export function taxInstantOf(createdAt: unknown, receivedAtMs: number): Date {
  const ns = parseOffsetDateTime(createdAt);
  if (ns !== undefined) {
    const ms = Number(ns / 1_000_000n);
    if (ms >= receivedAtMs - CREATED_AT_BEFORE_RECEIPT_MS && ms <= receivedAtMs + CREATED_AT_AFTER_RECEIPT_MS) return new Date(ms);
  }
  return new Date(receivedAtMs);
}

/**
 * Adds to the summary the revision that taxed the order and its tax instant (`taxSummary.fiscalDocument`): the
 * engine computes taxes from a group and knows nothing of revisions or time.
 */
export function withFiscalDocument(result: TaxEngineResult, revision: number | null, taxInstant: Date): void {
  const summary = result.summary as TaxSummary & { fiscalDocument?: FiscalDocument };
  summary.fiscalDocument = { revision, taxInstant: taxInstant.toISOString() };
  (result.payload as { taxSummary?: unknown }).taxSummary = summary;
}
