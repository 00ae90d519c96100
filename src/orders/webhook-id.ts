import { randomUUID } from 'node:crypto';

/**
 * The `webhook-id` of a newly stored enriched payload: random, kept with the order (`orders.webhook_id`) and sent on every
 * attempt of that payload (docs/webhook-retries.md). `msg_` and the 32 hex digits of a random UUID (122 random bits), as
 * long as the hash an order stored without one gets; `randomUUID` draws from a cached pool of entropy.
 */
export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}
