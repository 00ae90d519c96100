import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { ScrollTable } from '../../common/display';
import { formatDateTime } from '../../common/format';
import { Extra } from './detail-section';

type OrderDetail = Schemas['OrderDetailDto'];

/** The carrier's tracking updates. */
export function TrackingTable({ entries }: { entries: OrderDetail['tracking'] }) {
  const { t } = useTranslation('orders');
  if (entries.length === 0) return <Text c="gray.7">{t('detail.trackingEmpty')}</Text>;
  return (
    <ScrollTable striped verticalSpacing="xs" label={t('detail.trackingTable')} minWidth={900}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('detail.at')}</Table.Th>
          <Table.Th scope="col">{t('detail.trackingStatus')}</Table.Th>
          <Table.Th scope="col">{t('detail.trackingNumber')}</Table.Th>
          <Table.Th scope="col">{t('detail.trackUrl')}</Table.Th>
          <Table.Th scope="col">{t('detail.confirmationCode')}</Table.Th>
          <Table.Th scope="col">{t('detail.coordinates')}</Table.Th>
          <Table.Th scope="col">{t('detail.client')}</Table.Th>
          <Table.Th scope="col">{t('detail.extra')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry, index) => (
          <Table.Tr key={index}>
            <Table.Td>{formatDateTime(entry.at)}</Table.Td>
            <Table.Td>
              <Text size="sm" fw={600}>
                {entry.status}
              </Text>
              <Text size="xs" c="gray.7">
                {entry.orderStatusApplied ? t('detail.applied') : t('detail.notApplied')}
              </Text>
            </Table.Td>
            <Table.Td>{entry.trackingNumber ?? '—'}</Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              {entry.trackurl && /^https?:\/\//i.test(entry.trackurl) ? (
                <Anchor href={entry.trackurl} target="_blank" rel="noopener noreferrer" size="sm">
                  {entry.trackurl}
                </Anchor>
              ) : (
                (entry.trackurl ?? '—')
              )}
            </Table.Td>
            <Table.Td>{entry.deliveryConfirmationCode ?? '—'}</Table.Td>
            <Table.Td>
              {entry.shippingCoordinates.length === 0
                ? '—'
                : entry.shippingCoordinates.map((point, i) => (
                    <Text key={i} size="xs">
                      {point.latitude}, {point.longitude}
                    </Text>
                  ))}
            </Table.Td>
            <Table.Td>{entry.clientId ?? '—'}</Table.Td>
            <Table.Td>
              <Extra value={entry.extra} name={t('detail.extra')} fileName={`tracking-${index + 1}-extra.json`} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

/** The order's moves from one store to another. */
export function TransfersTable({ entries }: { entries: OrderDetail['transfers'] }) {
  const { t } = useTranslation('orders');
  if (entries.length === 0) return <Text c="gray.7">{t('detail.transfersEmpty')}</Text>;
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
    <ScrollTable striped verticalSpacing="xs" label={t('detail.transfersTable')} minWidth={900}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('detail.at')}</Table.Th>
          <Table.Th scope="col">{t('detail.fromStore')}</Table.Th>
          <Table.Th scope="col">{t('detail.toStore')}</Table.Th>
          <Table.Th scope="col">{t('detail.processedBy')}</Table.Th>
          <Table.Th scope="col">{t('detail.reason')}</Table.Th>
          <Table.Th scope="col">{t('detail.refiscalized')}</Table.Th>
          <Table.Th scope="col">{t('detail.client')}</Table.Th>
          <Table.Th scope="col">{t('detail.shippingAddress')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry, index) => (
          <Table.Tr key={index}>
            <Table.Td>{formatDateTime(entry.at)}</Table.Td>
            <Table.Td>{store(entry.fromStore, entry.fromStoreId)}</Table.Td>
            <Table.Td>{store(entry.toStore, entry.toStoreId)}</Table.Td>
            <Table.Td>{entry.processedBy}</Table.Td>
            <Table.Td>{entry.transferReason}</Table.Td>
            <Table.Td>{entry.refiscalized ? t('detail.yes') : t('detail.no')}</Table.Td>
            <Table.Td>{entry.clientId ?? '—'}</Table.Td>
            <Table.Td>
              <Extra value={entry.shippingAddress} name={t('detail.shippingAddress')} fileName={`transfer-${index + 1}-address.json`} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

/** The dispatches reported for the order. */
export function DispatchesTable({ entries }: { entries: OrderDetail['dispatches'] }) {
  const { t } = useTranslation('orders');
  if (entries.length === 0) return <Text c="gray.7">{t('detail.dispatchesEmpty')}</Text>;
  return (
    <ScrollTable striped verticalSpacing="xs" label={t('detail.dispatchesTable')} minWidth={560}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('detail.at')}</Table.Th>
          <Table.Th scope="col">{t('detail.transaction')}</Table.Th>
          <Table.Th scope="col">{t('detail.client')}</Table.Th>
          <Table.Th scope="col">{t('detail.extra')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map((entry, index) => (
          <Table.Tr key={index}>
            <Table.Td>{formatDateTime(entry.at)}</Table.Td>
            <Table.Td>{entry.idTransaccion}</Table.Td>
            <Table.Td>{entry.clientId ?? '—'}</Table.Td>
            <Table.Td>
              <Extra value={entry.extra} name={t('detail.extra')} fileName={`dispatch-${index + 1}-extra.json`} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
