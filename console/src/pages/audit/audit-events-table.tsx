import { Anchor, Code, List, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AuditEventDto } from './audit-model';
import { formatDateTime } from '../../common/format';
import { browserTimeZone, changeLines, isKnownAction, isKnownTargetType, targetFilterUrl } from './audit-model';

const ORDER_STATUSES = [
  'RECEIVED',
  'ENRICHED',
  'ENRICHMENT_FAILED',
  'FORWARDED',
  'FORWARD_FAILED',
  'ACCEPTED',
  'IN_PREPARATION',
  'READY',
  'DISPATCHED',
  'DELIVERED',
  'CANCELLED',
  'REJECTED',
] as const;
type OrderStatus = (typeof ORDER_STATUSES)[number];
const isOrderStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);
const DELIVERY_FEE_OPTIONS = ['WHEN_MERCHANT_DELIVERS', 'ALWAYS', 'NEVER'] as const;
const isDeliveryFeeOption = (value: string): value is (typeof DELIVERY_FEE_OPTIONS)[number] =>
  (DELIVERY_FEE_OPTIONS as readonly string[]).includes(value);

/** Audit events as the API lists them (newest first); each event's changes as before → after. */
export function AuditEventsTable({ events, showTarget = true }: { events: AuditEventDto[]; showTarget?: boolean }) {
  const { t } = useTranslation('audit');
  const { t: tOrders } = useTranslation('orders');
  const { t: tGroups } = useTranslation('fiscalGroups');
  // An order's status and a fiscal group's setting option are codes of the service: said by their labels.
  const valueText = (field: string, value: string) =>
    field === 'status' && isOrderStatus(value)
      ? tOrders(`status.${value}`)
      : field.endsWith('deliveryFeeOnInvoice') && isDeliveryFeeOption(value)
        ? tGroups(`edit.deliveryFeeOptions.${value}`)
        : value;
  const zone = browserTimeZone();
  return (
    // Focusable: a keyboard user scrolls the wide table (the History tab's events may hold no link).
    <Table.ScrollContainer minWidth={880} type="native" tabIndex={0} role="region" aria-label={t('table')}>
      <Table striped aria-label={t('table')} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('atIn', { zone })}</Table.Th>
            <Table.Th>{t('actor')}</Table.Th>
            <Table.Th>{t('action')}</Table.Th>
            {showTarget && <Table.Th>{t('target')}</Table.Th>}
            <Table.Th>{t('changes')}</Table.Th>
            <Table.Th>{t('origin')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => {
            const lines = changeLines(event);
            return (
              <Table.Tr key={event.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{event.actor.name}</Text>
                  <Text size="xs" c="gray.7">
                    {t(`actorTypes.${event.actor.type}`)} · {event.actor.id}
                  </Text>
                </Table.Td>
                <Table.Td data-action={event.action}>
                  {isKnownAction(event.action) ? <Text size="sm">{t(`actions.${event.action}`)}</Text> : <Code>{event.action}</Code>}
                </Table.Td>
                {showTarget && (
                  <Table.Td>
                    <Text size="sm">
                      {isKnownTargetType(event.target.type) ? t(`targetTypes.${event.target.type}`) : event.target.type}
                    </Text>
                    <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
                      {event.target.id}
                    </Text>
                    <Anchor
                      component={Link}
                      to={targetFilterUrl(event.target)}
                      size="xs"
                      aria-label={t('showTargetOf', {
                        type: isKnownTargetType(event.target.type) ? t(`targetTypes.${event.target.type}`) : event.target.type,
                        id: event.target.id,
                      })}
                    >
                      {t('showTarget')}
                    </Anchor>
                  </Table.Td>
                )}
                <Table.Td>
                  {lines.length === 0 ? (
                    <Text size="sm" c="gray.7">
                      {t('noChanges')}
                    </Text>
                  ) : (
                    <List size="sm" spacing={2}>
                      {lines.map((line) => (
                        <List.Item key={line.field} style={{ wordBreak: 'break-word' }}>
                          <strong>{line.field}</strong>: {valueText(line.field, line.before)} → {valueText(line.field, line.after)}
                        </List.Item>
                      ))}
                    </List>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{event.address ?? '—'}</Text>
                  <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
                    {event.requestId ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
