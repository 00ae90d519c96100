import { boolean, durationList, httpUrl, integer, InvalidValue, optionalText } from '../config-parsers.js';
import { whsecProblem } from '../webhook-secret.js';
import type { VariableSpec } from '../config-types.js';

/** Where enriched orders go, how failed sends are retried, and how long deliveries and the audit log are kept. */
export const FORWARDING_VARIABLES: VariableSpec[] = [
  {
    name: 'ORDER_WEBHOOK_URL',
    key: 'orderWebhookUrl',
    default: undefined,
    defaultLabel: 'unset',
    description: 'Where `/enrich-order-forward` posts the enriched order. Unset: forwarding answers 503.',
    parse: httpUrl,
  },
  {
    name: 'ORDER_WEBHOOK_SECRET',
    key: 'orderWebhookSecret',
    default: undefined,
    defaultLabel: 'unset',
    description: 'Standard Webhooks signing secret (`whsec_<base64>` or any text). Unset: no signature header.',
    sensitive: true,
    parse: (raw) => {
      const problem = whsecProblem(raw.trim());
      if (problem) throw new InvalidValue(problem);
      return optionalText(raw);
    },
  },
  {
    name: 'ORDER_WEBHOOK_TIMEOUT_MS',
    key: 'orderWebhookTimeoutMs',
    default: '10000',
    description: 'Hard timeout of one webhook delivery attempt.',
    parse: integer(100, 120_000),
  },
  {
    name: 'WEBHOOK_RETRY_ENABLED',
    key: 'webhookRetryEnabled',
    default: 'true',
    description: 'Retry failed forwards in the background.',
    parse: boolean,
  },
  {
    name: 'WEBHOOK_RETRY_SCHEDULE',
    key: 'webhookRetrySchedule',
    default: '5s,5m,30m,2h,5h,10h',
    description: 'Delays before each automatic retry of a failed forward.',
    parse: durationList,
  },
  {
    name: 'WEBHOOK_RETRY_CONCURRENCY',
    key: 'webhookRetryConcurrency',
    default: '32',
    description:
      'Retries of failed forwards one instance sends at the same time; a backlog is claimed again as soon as half of them are done.',
    parse: integer(1, 256),
  },
  {
    name: 'WEBHOOK_DELIVERY_RETENTION_DAYS',
    key: 'webhookDeliveryRetentionDays',
    default: '90',
    description:
      'Webhook delivery log rows older than this are deleted (hourly, in batches, by one instance at a time); 0 keeps them forever.',
    parse: integer(0, 36_500),
  },
  {
    name: 'AUDIT_RETENTION_DAYS',
    key: 'auditRetentionDays',
    default: '400',
    description: 'Audit events older than this are deleted (hourly, in batches, by one instance at a time).',
    parse: integer(1, 36_500),
  },
];
