import { createHash, createHmac, type KeyObject } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) message identity and signature.
 * Pure functions: no clock, no configuration.
 */

export const USER_AGENT = 'order-tax-service/1.0 (Standard Webhooks)';

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signature(key: KeyObject, webhookId: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.`).update(body).digest('base64')}`;
}

/**
 * JSON with object keys sorted at every level: the same text for the same value whatever
 * the key order, so a payload re-read from a jsonb column (which reorders keys) hashes
 * as the one first sent. It is valid JSON of the same value as `JSON.stringify` writes, so a
 * redelivery sends this text itself and hashes it once (`webhookIdOfCanonical`). Built by
 * appending to one string, without an array per object.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      const item: unknown = value[index];
      text += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${text}}`;
}

/**
 * The `webhook-id` of an order stored without one (`newWebhookId` in src/orders/webhook-id.ts gives the others theirs) (before ids were kept, or re-taxed by a transfer): one per enriched payload of one order, the same on every attempt
 * (forward, retries, redeliveries), so that a receiver can drop duplicates. A new
 * enrichment (a new `taxSummary.calculatedAt` at least) is a new message.
 */
export function webhookIdFor(orderDbId: string, enrichedPayload: unknown): string {
  return webhookIdOfCanonical(orderDbId, canonicalJson(enrichedPayload));
}

/** `webhookIdFor` of a payload whose canonical JSON (`canonicalJson`) is `canonicalText`: no second serialization. */
export function webhookIdOfCanonical(orderDbId: string, canonicalText: string): string {
  const digest = createHash('sha256').update(orderDbId).update('\n').update(canonicalText).digest('base64url');
  return `msg_${digest.slice(0, 32)}`;
}

/** The headers of one attempt; `webhook-signature` only with a key. None of them reveals the key. */
export function webhookHeaders(input: { webhookId: string; timestamp: number; body: string; key?: KeyObject }): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(input.timestamp),
  };
  if (input.key) headers['webhook-signature'] = signature(input.key, input.webhookId, input.timestamp, input.body);
  return headers;
}
