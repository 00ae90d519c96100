import { Alert, Anchor, Badge, Box, Button, Code, Group, Modal, Paper, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';
import { Facts, ScrollTable } from '../../common/display';
import { formatDateTime } from '../../common/format';
import { ErrorState, LoadingState } from '../../common/states';
import { TaxBreakdown, type EnrichedOrderPayload } from '../../common/tax-breakdown';
import { JsonBlock } from './json-block';
import { StatusBadge } from './status-badge';

type OrderDetail = Schemas['OrderDetailDto'];
type Delivery = Schemas['WebhookDeliveryEntryDto'];

type Outcome = { ok: true; message: string } | { ok: false; problem: ApiProblem };

export function OrderDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('orders');
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.orders.detail(id),
    queryFn: async () => unwrap(await api.GET('/api/admin/orders/{id}', { params: { path: { id } } })),
  });

  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    if (isProblem(query.error) && query.error.status === 404)
      return (
        <Stack gap="md" align="flex-start">
          <Title order={1}>{t('detail.notFound', { id })}</Title>
          <Text>{t('detail.notFoundHint')}</Text>
          <Anchor component={Link} to="/orders">
            {t('detail.back')}
          </Anchor>
        </Stack>
      );
    return (
      <Stack gap="md">
        <Anchor component={Link} to="/orders">
          {t('detail.back')}
        </Anchor>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  return <OrderDetailView order={query.data} onChanged={() => queryClient.invalidateQueries({ queryKey: queryKeys.orders.detail(id) })} />;
}

function OrderDetailView({ order, onChanged }: { order: OrderDetail; onChanged: () => Promise<void> }) {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, { open: openConfirm, close: closeConfirm }] = useDisclosure(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const redeliver = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/admin/orders/{id}/redeliver', { params: { path: { id: order.id } } })),
    onSuccess: (data) => setOutcome({ ok: true, message: data.message }),
    onError: (error) =>
      setOutcome({
        ok: false,
        problem: isProblem(error) ? error : { status: 0, message: error instanceof Error ? error.message : String(error) },
      }),
    onSettled: async () => {
      closeConfirm();
      await Promise.all([onChanged(), queryClient.invalidateQueries({ queryKey: queryKeys.orders.lists })]);
    },
  });

  const enriched = isEnriched(order.enrichedPayload) ? order.enrichedPayload : null;
  const last = order.webhookLastResponse;

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Anchor component={Link} to="/orders" size="sm">
          {t('detail.back')}
        </Anchor>
        <Group justify="space-between" align="flex-start" gap="sm">
          <Group gap="sm" align="center" style={{ minWidth: 0 }}>
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              {t('detail.title', { orderId: order.orderId })}
            </Title>
            <StatusBadge status={order.status} />
          </Group>
          <Button onClick={openConfirm}>{t('detail.redeliver')}</Button>
        </Group>
        {outcome &&
          (outcome.ok ? (
            <Alert
              color="green"
              role="status"
              data-testid="redeliver-outcome"
              withCloseButton
              closeButtonLabel={tc('actions.close')}
              onClose={() => setOutcome(null)}
            >
              {t('detail.redelivered', { message: outcome.message })}
            </Alert>
          ) : (
            <Alert
              color="red"
              role="alert"
              data-testid="redeliver-outcome"
              withCloseButton
              closeButtonLabel={tc('actions.close')}
              onClose={() => setOutcome(null)}
            >
              {t('detail.redeliverFailed', { status: outcome.problem.status || '—', message: outcome.problem.message })}
            </Alert>
          ))}
      </Stack>

      <Modal opened={confirming} onClose={closeConfirm} title={t('detail.redeliverTitle')} centered>
        <Stack gap="md">
          <Text>{t('detail.redeliverText', { orderId: order.orderId })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={closeConfirm} disabled={redeliver.isPending}>
              {tc('actions.cancel')}
            </Button>
            <Button onClick={() => redeliver.mutate()} loading={redeliver.isPending}>
              {t('detail.redeliver')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Section id="overview" title={t('detail.overview')}>
        <Facts
          minColumn="11rem"
          items={[
            [t('detail.internalId'), <Code key="id">{order.id}</Code>],
            [t('detail.store'), order.storeId ?? '—'],
            [t('detail.source'), order.source ?? '—'],
            [t('detail.status'), <StatusBadge key="status" status={order.status} />],
            [
              t('detail.attempts'),
              <span key="attempts" data-testid="webhook-attempts">
                {order.webhookAttempts}
              </span>,
            ],
            [t('detail.createdAt'), formatDateTime(order.createdAt)],
            [t('detail.updatedAt'), formatDateTime(order.updatedAt)],
            [
              t('detail.lastResponse'),
              last
                ? `${t('detail.lastResponseValue', { status: last.statusCode ?? t('detail.noAnswer'), duration: last.durationMs })}` +
                  (last.error ? ` · ${last.error}` : '')
                : '—',
            ],
          ]}
        />
        {order.payloadOmitted && (
          <Alert color="yellow" mt="sm">
            {t(`detail.payloadOmitted.${order.payloadOmitted}`)}
          </Alert>
        )}
      </Section>

      <Section id="taxes" title={t('detail.taxes')}>
        {enriched ? (
          <TaxBreakdown payload={enriched} />
        ) : order.payloadOmitted ? (
          <Text c="gray.7">{t(`detail.payloadOmitted.${order.payloadOmitted}`)}</Text>
        ) : (
          <Text c="gray.7">{t('detail.noEnrichment')}</Text>
        )}
      </Section>

      <Section id="history" title={t('detail.history')}>
        <HistoryTimeline history={order.history} />
      </Section>

      <Section id="tracking" title={t('detail.tracking')}>
        <TrackingTable entries={order.tracking} />
      </Section>

      <Section id="transfers" title={t('detail.transfers')}>
        <TransfersTable entries={order.transfers} />
      </Section>

      <Section id="dispatches" title={t('detail.dispatches')}>
        <DispatchesTable entries={order.dispatches} />
      </Section>

      <Section id="deliveries" title={t('detail.deliveries')}>
        {order.deliveries.length === 0 ? (
          <Text c="gray.7">{t('detail.deliveriesEmpty')}</Text>
        ) : (
          <Stack gap="sm" data-testid="deliveries">
            {order.deliveries.map((delivery) => (
              <DeliveryCard key={delivery.attempt} delivery={delivery} />
            ))}
          </Stack>
        )}
      </Section>

      <Section id="payloads" title={t('detail.payloads')}>
        <Stack gap="xs">
          {order.payload ? (
            <JsonBlock name={t('detail.payload')} value={order.payload} fileName={`order-${order.orderId}-payload.json`} />
          ) : (
            <Text c="gray.7">
              {t('detail.payload')}: {t('detail.noPayload')}
            </Text>
          )}
          {order.enrichedPayload ? (
            <JsonBlock name={t('detail.enrichedPayload')} value={order.enrichedPayload} fileName={`order-${order.orderId}-enriched.json`} />
          ) : (
            <Text c="gray.7">
              {t('detail.enrichedPayload')}: {t('detail.noPayload')}
            </Text>
          )}
        </Stack>
      </Section>
    </Stack>
  );
}

function isEnriched(value: unknown): value is EnrichedOrderPayload {
  return typeof value === 'object' && value !== null && 'taxSummary' in value && typeof value.taxSummary === 'object';
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" id={`order-${id}`} aria-labelledby={`section-${id}`} style={{ minWidth: 0 }}>
      <Title order={2} id={`section-${id}`} mb="sm">
        {title}
      </Title>
      {children}
    </Box>
  );
}

function Extra({ value, name, fileName }: { value: Record<string, unknown> | null; name: string; fileName: string }) {
  if (!value || Object.keys(value).length === 0) return <>—</>;
  return <JsonBlock name={name} value={value} fileName={fileName} />;
}

function HistoryTimeline({ history }: { history: OrderDetail['history'] }) {
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

function TrackingTable({ entries }: { entries: OrderDetail['tracking'] }) {
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

function TransfersTable({ entries }: { entries: OrderDetail['transfers'] }) {
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

function DispatchesTable({ entries }: { entries: OrderDetail['dispatches'] }) {
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

function DeliveryCard({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation('orders');
  const ok = delivery.statusCode !== null && delivery.statusCode >= 200 && delivery.statusCode < 300;
  const headers = Object.entries(delivery.requestHeaders ?? {});
  return (
    <Paper withBorder p="sm" data-testid="delivery" data-attempt={delivery.attempt}>
      <Group gap="sm" mb="xs" wrap="wrap">
        <Text fw={700}>
          {t('detail.attempt')} {delivery.attempt}
        </Text>
        <Badge variant="outline" color="gray.8" style={{ textTransform: 'none' }} data-testid="delivery-trigger">
          {t(`detail.triggers.${delivery.trigger}`, { defaultValue: delivery.trigger })}
        </Badge>
        <Badge
          color={ok ? 'teal.9' : 'red.9'}
          c="white"
          autoContrast={false}
          style={{ textTransform: 'none' }}
          data-testid="delivery-status"
        >
          {delivery.statusCode === null ? t('detail.noAnswer') : `HTTP ${delivery.statusCode}`}
        </Badge>
        <Text size="sm" c="gray.7">
          {formatDateTime(delivery.attemptedAt)}
        </Text>
      </Group>
      <Facts
        items={[
          [t('detail.url'), <Code key="url">{delivery.url}</Code>],
          [t('detail.statusCode'), delivery.statusCode === null ? t('detail.noAnswer') : String(delivery.statusCode)],
          [t('detail.duration'), t('detail.durationValue', { ms: delivery.durationMs })],
          [t('detail.trigger'), t(`detail.triggers.${delivery.trigger}`, { defaultValue: delivery.trigger })],
          [t('detail.webhookId'), <Code key="wid">{delivery.webhookId}</Code>],
          [t('detail.error'), delivery.error ?? '—'],
        ]}
      />
      <Stack gap={4} mt="xs">
        <Box component="details">
          <Box component="summary" style={{ cursor: 'pointer' }}>
            {t('detail.requestHeaders', { attempt: delivery.attempt })}
          </Box>
          <ScrollTable striped verticalSpacing="xs" label={t('detail.requestHeaders', { attempt: delivery.attempt })} minWidth={480}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('detail.header')}</Table.Th>
                <Table.Th scope="col">{t('detail.value')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {headers.map(([name, value]) => (
                <Table.Tr key={name}>
                  <Table.Th scope="row" fw={500}>
                    <Code>{name}</Code>
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </ScrollTable>
        </Box>
        <Box component="details">
          <Box component="summary" style={{ cursor: 'pointer' }}>
            {t('detail.responseBody', { attempt: delivery.attempt })}
          </Box>
          {delivery.responseBody ? (
            <Box
              component="pre"
              tabIndex={0}
              role="region"
              aria-label={t('detail.responseBody', { attempt: delivery.attempt })}
              m={0}
              mt={4}
              p="xs"
              bg="gray.0"
              data-testid="delivery-body"
              style={{
                maxHeight: '40vh',
                overflow: 'auto',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                fontSize: 'var(--mantine-font-size-xs)',
              }}
            >
              {delivery.responseBody}
            </Box>
          ) : (
            <Text size="sm" c="gray.7">
              {t('detail.noBody')}
            </Text>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}
