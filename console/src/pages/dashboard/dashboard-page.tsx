import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Button, Card, Group, List, SegmentedControl, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { api, unwrap, type Schemas } from '../../api/client';
import { formatDateTime } from '../../common/format';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { STATUS_COLORS } from '../orders/status-badge';

type Range = '24h' | '7d';
type Outcome = keyof Schemas['ForwardOutcomesDto'];

const OUTCOMES: { key: Outcome; color: string }[] = [
  { key: 'delivered', color: 'green.7' },
  { key: 'rejected', color: 'orange.6' },
  { key: 'failed', color: 'red.8' },
  { key: 'noAnswer', color: 'gray.6' },
];
/** The figures move while the page is open: read them again every minute. */
const REFRESH_MS = 60_000;

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const [searchParams, setSearchParams] = useSearchParams();
  const range: Range = searchParams.get('range') === '7d' ? '7d' : '24h';

  const setRange = (value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value === '7d') next.set('range', '7d');
    else next.delete('range');
    setSearchParams(next);
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{t('title')}</Title>
        <SegmentedControl
          aria-label={t('period')}
          value={range}
          onChange={setRange}
          data={[
            { value: '24h', label: t('last24h') },
            { value: '7d', label: t('last7d') },
          ]}
        />
      </Group>
      <OrdersPerHourCard range={range} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ForwardingCard range={range} />
        <MissingStoresCard range={range} />
        <OrderIdsTakenCard range={range} />
      </SimpleGrid>
    </Stack>
  );
}

function hourLabel(iso: string, range: Range, language: string): string {
  const options: Intl.DateTimeFormatOptions =
    range === '24h' ? { hour: '2-digit', minute: '2-digit' } : { day: '2-digit', month: '2-digit', hour: '2-digit' };
  return new Intl.DateTimeFormat(language, options).format(new Date(iso));
}

function OrdersPerHourCard({ range }: { range: Range }) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tOrders } = useTranslation('orders');
  const query = useQuery({
    queryKey: queryKeys.stats.ordersPerHour(range),
    queryFn: async () => unwrap(await api.GET('/api/admin/stats/orders-per-hour', { params: { query: { range } } })),
    refetchInterval: REFRESH_MS,
  });
  const statusName = (status: string) => tOrders(`status.${status}`, { defaultValue: status });

  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const { hours, totals } = query.data;
    const total = totals.reduce((sum, entry) => sum + entry.count, 0);
    if (total === 0) body = <EmptyState>{t('noOrders')}</EmptyState>;
    else {
      const data = hours.map((bucket) => ({
        hour: hourLabel(bucket.hour, range, i18n.language),
        ...Object.fromEntries(bucket.statuses.map((entry) => [entry.status, entry.count])),
      }));
      const series = totals.map((entry) => ({
        name: entry.status,
        label: statusName(entry.status),
        color: STATUS_COLORS[entry.status][0],
      }));
      const summary = totals.map((entry) => `${statusName(entry.status)}: ${entry.count}`).join(', ');
      body = (
        <Stack gap="sm">
          <Text fw={600} data-testid="orders-total">
            {t('ordersSummary', { count: total })}
          </Text>
          <div role="img" aria-label={t('chartSummary', { summary })}>
            <BarChart
              h={280}
              data={data}
              dataKey="hour"
              type="stacked"
              series={series}
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              tickLine="y"
              xAxisLabel={t('hourAxis')}
              barChartProps={{ accessibilityLayer: false }}
            />
          </div>
          {/* The figures behind the bars, as text: readable without the chart. */}
          <List size="sm" aria-label={t('ordersPerHour')} style={{ columns: '12rem' }}>
            {totals.map((entry) => (
              <List.Item key={entry.status} data-status={entry.status}>
                {statusName(entry.status)}: <strong>{entry.count}</strong>
              </List.Item>
            ))}
          </List>
        </Stack>
      );
    }
  }
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="orders-per-hour-title">
      <Title order={2} size="h4" id="orders-per-hour-title" mb="sm">
        {t('ordersPerHour')}
      </Title>
      {body}
    </Card>
  );
}

function ForwardingCard({ range }: { range: Range }) {
  const { t } = useTranslation('dashboard');
  const query = useQuery({
    queryKey: queryKeys.stats.forwarding(range),
    queryFn: async () => unwrap(await api.GET('/api/admin/stats/forwarding', { params: { query: { range } } })),
    refetchInterval: REFRESH_MS,
  });

  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else {
    const { outcomes, retryQueue } = query.data;
    const attempts = OUTCOMES.reduce((sum, outcome) => sum + outcomes[outcome.key], 0);
    const summary = OUTCOMES.map((outcome) => `${t(`outcome.${outcome.key}`)}: ${outcomes[outcome.key]}`).join(', ');
    body = (
      <Stack gap="md">
        {attempts === 0 ? (
          <EmptyState>{t('noAttempts')}</EmptyState>
        ) : (
          <Group align="center" gap="lg" wrap="wrap">
            <div role="img" aria-label={t('forwardingSummary', { summary })}>
              <DonutChart
                size={150}
                thickness={26}
                chartLabel={attempts}
                data={OUTCOMES.filter((outcome) => outcomes[outcome.key] > 0).map((outcome) => ({
                  name: t(`outcome.${outcome.key}`),
                  value: outcomes[outcome.key],
                  color: outcome.color,
                }))}
                pieProps={{ isAnimationActive: false }}
              />
            </div>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                {t('attempts', { count: attempts })}
              </Text>
              {OUTCOMES.map((outcome) => (
                <Text size="sm" key={outcome.key} data-outcome={outcome.key}>
                  <span
                    aria-hidden
                    style={{
                      display: 'inline-block',
                      width: 10,
                      height: 10,
                      borderRadius: 2,
                      marginRight: 6,
                      background: `var(--mantine-color-${outcome.color.replace('.', '-')})`,
                    }}
                  />
                  {t(`outcome.${outcome.key}`)}: <strong>{outcomes[outcome.key]}</strong>
                </Text>
              ))}
            </Stack>
          </Group>
        )}
        <div>
          <Title order={3} size="h5" mb={4}>
            {t('retryQueue')}
          </Title>
          <Group gap="xl">
            <Stack gap={0}>
              <Text size="xl" fw={700} data-testid="retry-due">
                {retryQueue.due}
              </Text>
              <Text size="sm" c="gray.7">
                {t('retryDue')}
              </Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xl" fw={700} data-testid="retry-scheduled">
                {retryQueue.scheduled}
              </Text>
              <Text size="sm" c="gray.7">
                {t('retryScheduled')}
              </Text>
            </Stack>
          </Group>
        </div>
      </Stack>
    );
  }
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="forwarding-title">
      <Title order={2} size="h4" id="forwarding-title" mb="sm">
        {t('forwarding')}
      </Title>
      {body}
    </Card>
  );
}

function MissingStoresCard({ range }: { range: Range }) {
  const { t } = useTranslation('dashboard');
  const query = useQuery({
    queryKey: queryKeys.stats.storesMissingFiscalGroup(range),
    queryFn: async () => unwrap(await api.GET('/api/admin/stats/stores-missing-fiscal-group', { params: { query: { range } } })),
    refetchInterval: REFRESH_MS,
  });

  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.stores.length === 0) body = <EmptyState>{t('missingNone')}</EmptyState>;
  else {
    const { stores, total } = query.data;
    body = (
      <Stack gap="sm">
        <Table.ScrollContainer minWidth={420}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('store')}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('failedOrders')}
                </Table.Th>
                <Table.Th scope="col">{t('lastFailure')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('createGroup')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stores.map((store) => (
                <Table.Tr key={store.storeId} data-store={store.storeId}>
                  <Table.Td ff="monospace">{store.storeId}</Table.Td>
                  <Table.Td ta="right">{store.failedOrders}</Table.Td>
                  <Table.Td>{formatDateTime(store.lastFailedAt)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      component={Link}
                      to={`/fiscal-groups/new?storeId=${encodeURIComponent(store.storeId)}`}
                    >
                      {t('createGroup')}
                      {/* The link's name says which store; the visible words start it (WCAG 2.5.3). */}
                      <VisuallyHidden>&nbsp;{t('forStore', { storeId: store.storeId })}</VisuallyHidden>
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {total > stores.length && (
          <Text size="sm" c="gray.7">
            {t('missingMore', { shown: stores.length, total })}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="missing-stores-title">
      <Title order={2} size="h4" id="missing-stores-title" mb={4}>
        {t('missingStores')}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {t('missingIntro')}
      </Text>
      {body}
    </Card>
  );
}

/** Orders a store's client stored first under another store's order id, moved aside for the platform's order. */
function OrderIdsTakenCard({ range }: { range: Range }) {
  const { t } = useTranslation('dashboard');
  const query = useQuery({
    queryKey: queryKeys.stats.orderIdsTaken(range),
    queryFn: async () => unwrap(await api.GET('/api/admin/stats/order-ids-taken', { params: { query: { range } } })),
    refetchInterval: REFRESH_MS,
  });

  let body;
  if (query.isPending) body = <LoadingState />;
  else if (query.isError) body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.count === 0) body = <EmptyState>{t('idsTakenNone')}</EmptyState>;
  else {
    body = (
      <Text fw={700} data-testid="order-ids-taken">
        {t('idsTakenCount', { count: query.data.count })}
      </Text>
    );
  }
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="order-ids-taken-title">
      <Title order={2} size="h4" id="order-ids-taken-title" mb={4}>
        {t('idsTaken')}
      </Title>
      <Text size="sm" c="gray.7" mb="sm">
        {t('idsTakenIntro')}
      </Text>
      {body}
    </Card>
  );
}
