import { Group, Text, Timeline } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../common/format';
import { Extra } from './detail-section';
import { StatusBadge } from './status-badge';

type OrderDetail = Schemas['OrderDetailDto'];

/** The order's status changes, oldest first: who made each, through which route, and the point of sale's own label. */
export function HistoryTimeline({ history }: { history: OrderDetail['history'] }) {
  const { t } = useTranslation('orders');
  if (history.length === 0) return <Text c="gray.7">{t('detail.historyEmpty')}</Text>;
  return (
    <Timeline active={history.length - 1} bulletSize={16} lineWidth={2} data-testid="history">
      {history.map((change, index) => (
        <Timeline.Item
          key={index}
          data-testid="history-entry"
          title={
            <Group gap="xs" wrap="wrap">
              <StatusBadge status={change.status} />
              {change.label && (
                <Text span size="sm" fw={600} data-testid="pos-label">
                  {t('detail.posLabel', { label: change.label })}
                </Text>
              )}
            </Group>
          }
        >
          <Text size="sm" c="gray.7">
            {formatDateTime(change.at)} · {change.from ? t('detail.fromTo', { from: t(`status.${change.from}`) }) : t('detail.created')}
          </Text>
          <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
            {t('detail.via')}: {change.via ?? '—'} · {t('detail.client')}: {change.clientId ?? '—'}
          </Text>
          {change.extra && <Extra value={change.extra} name={t('detail.extra')} fileName={`history-${index + 1}-extra.json`} />}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
