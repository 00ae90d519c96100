import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  NativeSelect,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useListPage } from '../../list/use-list-page';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap, type paths, type Schemas } from '../../api/client';
import { orderTotal } from '../../common/order-total';
import { formatCents, formatDateTime, formatMoney, isoToLocalInput, localInputToIsoWithOffset } from '../../common/format';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { isObj, num } from '../../common/values';
import { ORDER_STATUSES, StatusBadge } from './status-badge';
import { useHasRole } from '../../auth/use-session';
import { isMarketplace, MARKETPLACE_NAMES, MARKETPLACES, marketplaceOf } from './order-origin';
import { validationProblemText } from '../../api/validation-problem';

type ListQuery = NonNullable<paths['/api/admin/orders']['get']['parameters']['query']>;
type Order = Schemas['PersistedOrderDto'];

/** The API's query parameters, kept in the URL under the same names (a link shares the exact list). */
const TEXT_FILTERS = ['q', 'orderId', 'storeId', 'source'] as const;
const DATE_FILTERS = ['createdFrom', 'createdTo'] as const;
const NUMBER_FILTERS = ['minWebhookAttempts', 'maxWebhookAttempts'] as const;
const FILTERS = [...TEXT_FILTERS, 'status', ...DATE_FILTERS, ...NUMBER_FILTERS] as const;
type Filter = (typeof FILTERS)[number];
const PAGE_SIZES = ['10', '20', '50', '100'];
const DEFAULT_PAGE_SIZE = '20';
/** Mantine's default description colour is too light for WCAG AA contrast on white. */
const DESCRIPTION_STYLES = { description: { color: 'var(--mantine-color-gray-7)' } };

/** `enrichedPayload.taxSummary.totals.total_tax`. */
function totalTax(order: Order): number | undefined {
  const summary = isObj(order.enrichedPayload) ? order.enrichedPayload.taxSummary : undefined;
  const totals = isObj(summary) ? summary.totals : undefined;
  return isObj(totals) ? num(totals.total_tax) : undefined;
}

export function OrdersPage() {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation();
  // Whatever the URL holds goes to the API as written: a bad value comes back as a 400 shown at its field.
  const { query: list, ...listPage } = useListPage({
    filters: FILTERS,
    settings: ['pageSize'] as const,
    queryKey: ({ apiQuery }) => queryKeys.orders.list(apiQuery),
    queryFn: async ({ apiQuery }) => unwrap(await api.GET('/api/admin/orders', { params: { query: apiQuery as unknown as ListQuery } })),
  });

  const problem = list.isError && isProblem(list.error) && list.error.status === 400 ? list.error : undefined;
  const fieldErrors: Partial<Record<string, string>> = {};
  for (const detail of problem?.details ?? []) {
    const said = validationProblemText(detail.problem);
    if (detail.field && said) fieldErrors[detail.field] = fieldErrors[detail.field] ? `${fieldErrors[detail.field]}; ${said}` : said;
  }
  const formFields: readonly string[] = [...FILTERS, 'pageSize'];
  const otherErrors = (problem?.details ?? []).filter((detail) => !detail.field || !formFields.includes(detail.field));

  return (
    <Stack gap="md">
      <Title order={1}>{t('list.title')}</Title>

      <FilterForm
        // A new URL (a shared link, the back button) resets the inputs to it.
        key={listPage.urlKey}
        values={listPage.values}
        errors={fieldErrors}
        onApply={listPage.apply}
        onClear={listPage.clear}
      />

      {problem ? (
        <Alert color="red" role="alert" title={t('list.refused', { message: problem.message })}>
          {otherErrors.length > 0 && (
            <List size="sm">
              {otherErrors.map((detail, index) => (
                <List.Item key={index}>
                  {detail.field ? <strong>{detail.field}: </strong> : null}
                  {validationProblemText(detail.problem)}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      ) : list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 && list.data.total === 0 ? (
        <EmptyState>{listPage.filtered ? t('list.empty') : t('list.emptyAll')}</EmptyState>
      ) : (
        <>
          <Table.ScrollContainer minWidth={980} type="native">
            <Table striped highlightOnHover aria-label={t('list.table')} data-testid="orders-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('list.orderId')}</Table.Th>
                  <Table.Th scope="col">{t('list.status')}</Table.Th>
                  <Table.Th scope="col">{t('list.store')}</Table.Th>
                  <Table.Th scope="col">{t('list.marketplace')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('list.orderAmount')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('list.totalTax')}
                  </Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('list.attempts')}
                  </Table.Th>
                  <Table.Th scope="col">{t('list.created')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((order) => (
                  <Table.Tr key={order.id} data-order-id={order.orderId}>
                    <Table.Th scope="row" fw={400}>
                      <Anchor
                        component={Link}
                        to={`/orders/${encodeURIComponent(order.id)}`}
                        fw={600}
                        style={{ overflowWrap: 'anywhere' }}
                        aria-label={t('list.open', { orderId: order.orderId })}
                      >
                        {order.orderId}
                      </Anchor>
                    </Table.Th>
                    <Table.Td>
                      <StatusBadge status={order.status} />
                    </Table.Td>
                    <Table.Td>{order.storeId ?? '—'}</Table.Td>
                    <Table.Td data-field="marketplace">
                      <Origin source={order.source} number={order.marketplaceOrderNumber} />
                    </Table.Td>
                    <Table.Td ta="right" data-field="orderAmount">
                      {order.payloadOmitted ? <Omitted /> : <OrderValue payload={order.payload} />}
                    </Table.Td>
                    <Table.Td ta="right" data-field="totalTax">
                      {order.payloadOmitted ? <Omitted /> : formatMoney(totalTax(order))}
                    </Table.Td>
                    <Table.Td ta="right">{order.webhookAttempts}</Table.Td>
                    <Table.Td>{formatDateTime(order.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data.items.length === 0 && <EmptyState>{t('list.empty')}</EmptyState>}
          <Group justify="space-between" gap="sm">
            <Text size="sm" data-testid="orders-summary">
              {t('list.summary', {
                total: t('list.total', { count: list.data.total }),
                page: list.data.page,
                pages: Math.max(1, list.data.totalPages),
              })}
            </Text>
            {list.data.totalPages > 1 && (
              <Pagination
                total={list.data.totalPages}
                value={listPage.page}
                onChange={listPage.goTo}
                siblings={1}
                boundaries={1}
                getControlProps={(control) => ({ 'aria-label': t(`list.pageControl.${control}`) })}
                aria-label={tc('pagination.label')}
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}

/** The platform's order amount, or the sum of the lines (marked so) when the payload has none. */
function OrderValue({ payload }: { payload: unknown }) {
  const { t } = useTranslation('orders');
  const total = orderTotal(payload);
  if (!total) return <>{formatCents(undefined)}</>;
  return (
    <>
      {formatCents(total.cents)}
      {total.from === 'lines' && (
        <Text span display="block" size="xs" c="gray.7">
          {t('list.fromLines')}
        </Text>
      )}
    </>
  );
}

/** The marketplace (or the platform, with the source it sent) and the marketplace's own order number. */
function Origin({ source, number }: { source: string | null; number: string | null }) {
  const { t } = useTranslation('orders');
  const marketplace = marketplaceOf(source);
  return (
    <>
      {marketplace === 'platform' ? t('list.platform') : MARKETPLACE_NAMES[marketplace]}
      {marketplace === 'platform' && source && (
        <Text span display="block" size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
          {t('list.otherSource', { source })}
        </Text>
      )}
      {number && (
        <Text span display="block" size="xs" c="gray.7" data-field="marketplaceOrderNumber" style={{ overflowWrap: 'anywhere' }}>
          {t('list.marketplaceNumber', { number })}
        </Text>
      )}
    </>
  );
}

function Omitted() {
  const { t } = useTranslation('orders');
  return (
    <Text span size="xs" c="gray.7">
      {t('list.omitted')}
    </Text>
  );
}

/** `isoToLocalInput`, keeping the seconds when there are any (the inputs take them: step 1). */
function isoToLocalInputWithSeconds(iso: string): string {
  const local = isoToLocalInput(iso);
  const seconds = local ? new Date(iso).getSeconds() : 0;
  return seconds ? `${local}:${String(seconds).padStart(2, '0')}` : local;
}

function FilterForm({
  values: fromUrl,
  errors,
  onApply,
  onClear,
}: {
  values: Record<Filter | 'pageSize', string>;
  errors: Partial<Record<string, string>>;
  onApply: (next: Partial<Record<Filter | 'pageSize', string>>) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('orders');
  // Only an admin's search looks at customers: the hint says what this person's search finds.
  const findsCustomers = useHasRole('admin');
  const initial = Object.fromEntries(
    FILTERS.map((name) => {
      const value = fromUrl[name];
      return [name, (DATE_FILTERS as readonly string[]).includes(name) ? isoToLocalInputWithSeconds(value) || value : value];
    }),
  ) as Record<Filter, string>;
  const [values, setValues] = useState(initial);
  const [pageSize, setPageSize] = useState(fromUrl.pageSize);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const set = (name: Filter) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [name]: value }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Partial<Record<Filter | 'pageSize', string>> = {};
    for (const name of FILTERS) {
      const value = values[name].trim();
      if (!value) continue;
      if ((DATE_FILTERS as readonly string[]).includes(name)) {
        // Unchanged since the link was opened: keep the URL's instant as it was (seconds, offset).
        const original = fromUrl[name];
        next[name] = original && value === initial[name] ? original : (localInputToIsoWithOffset(value) ?? value);
      } else next[name] = value;
    }
    if (pageSize && pageSize !== DEFAULT_PAGE_SIZE) next.pageSize = pageSize;
    onApply(next);
  };

  const statusOptions = [
    { value: '', label: t('list.anyStatus') },
    ...ORDER_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })),
    // A status the console does not know (from a hand-written link) stays visible, and the API says why it is refused.
    ...(values.status && !(ORDER_STATUSES as readonly string[]).includes(values.status)
      ? [{ value: values.status, label: values.status }]
      : []),
  ];
  const marketplaceOptions = [
    { value: '', label: t('list.anyMarketplace') },
    ...MARKETPLACES.map((marketplace) => ({ value: marketplace, label: MARKETPLACE_NAMES[marketplace] })),
    // Another source (the platform's own, from a link) stays chosen and visible.
    ...(values.source && !isMarketplace(values.source)
      ? [{ value: values.source, label: t('list.otherSource', { source: values.source }) }]
      : []),
  ];
  const pageSizeOptions = fromUrl.pageSize && !PAGE_SIZES.includes(fromUrl.pageSize) ? [...PAGE_SIZES, fromUrl.pageSize] : PAGE_SIZES;

  return (
    <Paper withBorder p="sm" component="form" onSubmit={submit} aria-label={t('list.filters')} role="search">
      <TextInput
        type="search"
        mb="sm"
        label={t('list.search')}
        description={findsCustomers ? t('list.searchHintAdmin') : t('list.searchHint')}
        styles={DESCRIPTION_STYLES}
        name="q"
        value={values.q}
        onChange={set('q')}
        error={errors.q}
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm" verticalSpacing="xs">
        <TextInput
          label={t('list.orderId')}
          description={t('list.orderIdHint')}
          styles={DESCRIPTION_STYLES}
          name="orderId"
          value={values.orderId}
          onChange={set('orderId')}
          error={errors.orderId}
        />
        <TextInput label={t('list.storeId')} name="storeId" value={values.storeId} onChange={set('storeId')} error={errors.storeId} />
        <NativeSelect
          label={t('list.marketplace')}
          name="source"
          value={values.source}
          data={marketplaceOptions}
          onChange={set('source')}
          error={errors.source}
        />
        <NativeSelect
          label={t('list.status')}
          name="status"
          value={values.status}
          data={statusOptions}
          onChange={set('status')}
          error={errors.status}
        />
        <TextInput
          type="datetime-local"
          step={1}
          label={t('list.createdFrom')}
          description={t('list.dateHint', { zone })}
          styles={DESCRIPTION_STYLES}
          name="createdFrom"
          value={values.createdFrom}
          onChange={set('createdFrom')}
          error={errors.createdFrom}
        />
        <TextInput
          type="datetime-local"
          step={1}
          label={t('list.createdTo')}
          description={t('list.dateHint', { zone })}
          styles={DESCRIPTION_STYLES}
          name="createdTo"
          value={values.createdTo}
          onChange={set('createdTo')}
          error={errors.createdTo}
        />
        <TextInput
          inputMode="numeric"
          label={t('list.minWebhookAttempts')}
          name="minWebhookAttempts"
          value={values.minWebhookAttempts}
          onChange={set('minWebhookAttempts')}
          error={errors.minWebhookAttempts}
        />
        <TextInput
          inputMode="numeric"
          label={t('list.maxWebhookAttempts')}
          name="maxWebhookAttempts"
          value={values.maxWebhookAttempts}
          onChange={set('maxWebhookAttempts')}
          error={errors.maxWebhookAttempts}
        />
        <NativeSelect
          label={t('list.pageSize')}
          name="pageSize"
          value={pageSize || DEFAULT_PAGE_SIZE}
          data={pageSizeOptions}
          onChange={(event) => setPageSize(event.currentTarget.value)}
          error={errors.pageSize}
        />
      </SimpleGrid>
      <Group gap="sm" mt="sm">
        <Button type="submit">{t('list.apply')}</Button>
        <Button variant="default" onClick={onClear}>
          {t('list.clear')}
        </Button>
      </Group>
    </Paper>
  );
}
