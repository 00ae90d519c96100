import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';

export type OrderStatus = Schemas['PersistedOrderDto']['status'];

/**
 * One colour per status; the text is always there too (colour is never the only sign). Each
 * background is paired with the text colour that keeps WCAG AA contrast (4.5:1) at badge size.
 */
export const STATUS_COLORS: Record<OrderStatus, [background: string, text: 'white' | 'black']> = {
  RECEIVED: ['gray.7', 'white'],
  ENRICHED: ['blue.8', 'white'],
  ENRICHMENT_FAILED: ['red.9', 'white'],
  FORWARDED: ['teal.9', 'white'],
  FORWARD_FAILED: ['orange.6', 'black'],
  ACCEPTED: ['cyan.9', 'white'],
  IN_PREPARATION: ['indigo.7', 'white'],
  READY: ['violet.6', 'white'],
  DISPATCHED: ['grape.8', 'white'],
  DELIVERED: ['green.7', 'black'],
  CANCELLED: ['dark.6', 'white'],
  REJECTED: ['pink.8', 'white'],
};

/** Every status, in lifecycle order: the keys above, which the type makes complete. */
export const ORDER_STATUSES = Object.keys(STATUS_COLORS) as OrderStatus[];

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('orders');
  return (
    <Badge
      color={(STATUS_COLORS[status] ?? STATUS_COLORS.RECEIVED)[0]}
      c={(STATUS_COLORS[status] ?? STATUS_COLORS.RECEIVED)[1]}
      autoContrast={false}
      variant="filled"
      style={{ textTransform: 'none', minWidth: 'max-content', flexShrink: 0 }}
      data-status={status}
    >
      {t(`status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
