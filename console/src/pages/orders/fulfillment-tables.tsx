import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { RecordTable } from '../../common/display';
import { formatDateTime } from '../../common/format';
import { Extra } from './detail-section';

type OrderDetail = Schemas['OrderDetailDto'];

/** The carrier's tracking updates. */
export function TrackingTable({ entries }: { entries: OrderDetail['tracking'] }) {
  const { t } = useTranslation('orders');
  return (
    <RecordTable
      records={entries}
      label={t('detail.trackingTable')}
      empty={t('detail.trackingEmpty')}
      minWidth={900}
      columns={[
        { header: t('detail.at'), cell: (entry) => formatDateTime(entry.at) },
        {
          header: t('detail.trackingStatus'),
          cell: (entry) => (
            <>
              <Text size="sm" fw={600}>
                {entry.status}
              </Text>
              <Text size="xs" c="gray.7">
                {entry.orderStatusApplied ? t('detail.applied') : t('detail.notApplied')}
              </Text>
            </>
          ),
        },
        { header: t('detail.trackingNumber'), cell: (entry) => entry.trackingNumber ?? '—' },
        {
          header: t('detail.trackUrl'),
          cell: (entry) => (
            <span style={{ overflowWrap: 'anywhere' }}>
              {entry.trackurl && /^https?:\/\//i.test(entry.trackurl) ? (
                <Anchor href={entry.trackurl} target="_blank" rel="noopener noreferrer" size="sm">
                  {entry.trackurl}
                </Anchor>
              ) : (
                (entry.trackurl ?? '—')
              )}
            </span>
          ),
        },
        { header: t('detail.confirmationCode'), cell: (entry) => entry.deliveryConfirmationCode ?? '—' },
        {
          header: t('detail.coordinates'),
          cell: (entry) =>
            entry.shippingCoordinates.length === 0
              ? '—'
              : entry.shippingCoordinates.map((point, i) => (
                  <Text key={i} size="xs">
                    {point.latitude}, {point.longitude}
                  </Text>
                )),
        },
        { header: t('detail.client'), cell: (entry) => entry.clientId ?? '—' },
        {
          header: t('detail.extra'),
          cell: (entry, index) => <Extra value={entry.extra} name={t('detail.extra')} fileName={`tracking-${index + 1}-extra.json`} />,
        },
      ]}
    />
  );
}

/** The order's moves from one store to another. */
export function TransfersTable({ entries }: { entries: OrderDetail['transfers'] }) {
  const { t } = useTranslation('orders');
  const store = (sent: string, resolved: string | null) => (
    <>
      <Text size="sm">{sent}</Text>
      {resolved && resolved !== sent && (
        <Text size="xs" c="gray.7">
          {t('detail.resolvedAs', { id: resolved })}
        </Text>
      )}
    </>
  );
  return (
    <RecordTable
      records={entries}
      label={t('detail.transfersTable')}
      empty={t('detail.transfersEmpty')}
      minWidth={900}
      columns={[
        { header: t('detail.at'), cell: (entry) => formatDateTime(entry.at) },
        { header: t('detail.fromStore'), cell: (entry) => store(entry.fromStore, entry.fromStoreId) },
        { header: t('detail.toStore'), cell: (entry) => store(entry.toStore, entry.toStoreId) },
        { header: t('detail.processedBy'), cell: (entry) => entry.processedBy },
        { header: t('detail.reason'), cell: (entry) => entry.transferReason },
        { header: t('detail.refiscalized'), cell: (entry) => (entry.refiscalized ? t('detail.yes') : t('detail.no')) },
        { header: t('detail.client'), cell: (entry) => entry.clientId ?? '—' },
        {
          header: t('detail.shippingAddress'),
          cell: (entry, index) => (
            <Extra value={entry.shippingAddress} name={t('detail.shippingAddress')} fileName={`transfer-${index + 1}-address.json`} />
          ),
        },
      ]}
    />
  );
}

/** The dispatches reported for the order. */
export function DispatchesTable({ entries }: { entries: OrderDetail['dispatches'] }) {
  const { t } = useTranslation('orders');
  return (
    <RecordTable
      records={entries}
      label={t('detail.dispatchesTable')}
      empty={t('detail.dispatchesEmpty')}
      minWidth={560}
      columns={[
        { header: t('detail.at'), cell: (entry) => formatDateTime(entry.at) },
        { header: t('detail.transaction'), cell: (entry) => entry.idTransaccion },
        { header: t('detail.client'), cell: (entry) => entry.clientId ?? '—' },
        {
          header: t('detail.extra'),
          cell: (entry, index) => <Extra value={entry.extra} name={t('detail.extra')} fileName={`dispatch-${index + 1}-extra.json`} />,
        },
      ]}
    />
  );
}
