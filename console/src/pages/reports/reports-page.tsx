import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { ScrollTable } from '../../common/display';
import { formatDateTime, formatMoney, formatRate } from '../../common/format';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';

type ReportQuery = { from: string; to: string; timeZone: string; storeId: string; fiscalGroupId: string; uf: string };
type Report = Schemas['TaxReportDto'];

const MONEY = ['icmsBase', 'icmsValue', 'fcpValue', 'pisBase', 'pisValue', 'cofinsBase', 'cofinsValue', 'totalTax'] as const;

/** The days of the current month up to today, in the browser's calendar: the period an accountant asks for first. */
function thisMonth(): Pick<ReportQuery, 'from' | 'to'> {
  const today = new Date();
  const day = (date: Date) =>
    `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return { from: day(new Date(today.getFullYear(), today.getMonth(), 1)), to: day(today) };
}

/** The parameters the API takes: empty filters are left out. */
function apiQuery(query: ReportQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== ''));
}

export function ReportsPage() {
  const { t } = useTranslation('reports');
  const [draft, setDraft] = useState<ReportQuery>(() => ({
    ...thisMonth(),
    timeZone: 'America/Sao_Paulo',
    storeId: '',
    fiscalGroupId: '',
    uf: '',
  }));
  const [applied, setApplied] = useState<ReportQuery | undefined>();
  const query = useQuery({
    queryKey: queryKeys.reports.tax(applied ? apiQuery(applied) : {}),
    enabled: applied !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/admin/reports/tax', { params: { query: apiQuery(applied!) as { from: string; to: string } } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied({ ...draft, uf: draft.uf.trim().toUpperCase(), storeId: draft.storeId.trim(), fiscalGroupId: draft.fiscalGroupId.trim() });
  };
  const problem = query.isError && isProblem(query.error) && query.error.status === 400 ? query.error : undefined;
  const fieldErrors: Partial<Record<string, string>> = {};
  for (const detail of problem?.details ?? []) if (detail.field && detail.problem) fieldErrors[detail.field] = detail.problem;
  const field = (name: keyof ReportQuery, type = 'text') => (
    <TextInput
      label={t(name)}
      type={type}
      value={draft[name]}
      error={fieldErrors[name]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setDraft((current) => ({ ...current, [name]: value }));
      }}
    />
  );

  return (
    <Stack gap="md">
      <Title order={1}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <Paper withBorder p="sm" component="form" role="search" aria-label={t('filters')} onSubmit={submit}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {field('from', 'date')}
            {field('to', 'date')}
            {field('timeZone')}
            {field('storeId')}
            {field('fiscalGroupId')}
            {field('uf')}
          </SimpleGrid>
          <Group gap="sm">
            <Button type="submit">{t('apply')}</Button>
          </Group>
        </Stack>
      </Paper>
      {!applied ? (
        <EmptyState>{t('choosePeriod')}</EmptyState>
      ) : problem ? (
        <Alert color="red" role="alert" title={problem.message} />
      ) : query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <ReportView report={query.data} query={applied} />
      )}
    </Stack>
  );
}

function ReportView({ report, query }: { report: Report; query: ReportQuery }) {
  const { t } = useTranslation('reports');
  const parameters = new URLSearchParams(apiQuery(query)).toString();
  // The order list takes instants: the period's, its end inclusive to the microsecond.
  const lastInstant = `${new Date(Date.parse(report.periodEnd) - 1000).toISOString().slice(0, 19)}.999999Z`;
  const orderExport = new URLSearchParams({
    createdFrom: report.periodStart,
    createdTo: lastInstant,
    ...(query.storeId ? { storeId: query.storeId } : {}),
  }).toString();
  return (
    <Stack gap="sm">
      <Text size="sm">
        {t('period', { start: formatDateTime(report.periodStart), end: formatDateTime(report.periodEnd), timeZone: report.timeZone })}
      </Text>
      <Group gap="md">
        <Anchor href={`/api/admin/reports/tax.csv?${parameters}`} download>
          {t('downloadCsv')}
        </Anchor>
        <Anchor href={`/api/admin/reports/tax.xlsx?${parameters}`} download>
          {t('downloadXlsx')}
        </Anchor>
        <Anchor href={`/api/admin/reports/orders.csv?${orderExport}`} download title={t('exportOrdersHint')}>
          {t('exportOrders')}
        </Anchor>
      </Group>
      {report.rows.length === 0 ? (
        <EmptyState>{t('empty')}</EmptyState>
      ) : (
        <ScrollTable label={t('table')} minWidth={1100} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('storeId')}</Table.Th>
              <Table.Th>{t('group')}</Table.Th>
              <Table.Th>{t('uf')}</Table.Th>
              <Table.Th>{t('cfop')}</Table.Th>
              <Table.Th>{t('cst')}</Table.Th>
              <Table.Th>{t('icmsRate')}</Table.Th>
              <Table.Th>{t('orders')}</Table.Th>
              <Table.Th>{t('items')}</Table.Th>
              {MONEY.map((name) => (
                <Table.Th key={name}>{t(name)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.rows.map((row, index) => (
              <Table.Tr key={index}>
                <Table.Td>{row.storeId ?? '—'}</Table.Td>
                <Table.Td>{row.fiscalGroupName ?? row.fiscalGroupId ?? '—'}</Table.Td>
                <Table.Td>{row.uf ?? '—'}</Table.Td>
                <Table.Td>{row.cfop ?? '—'}</Table.Td>
                <Table.Td>{row.cst ?? '—'}</Table.Td>
                <Table.Td>{formatRate(row.icmsRate)}</Table.Td>
                <Table.Td>{row.orders}</Table.Td>
                <Table.Td>{row.items}</Table.Td>
                {MONEY.map((name) => (
                  <Table.Td key={name}>{formatMoney(row[name])}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th colSpan={6}>{t('total')}</Table.Th>
              <Table.Th>{report.totals.orders}</Table.Th>
              <Table.Th>{report.totals.items}</Table.Th>
              {MONEY.map((name) => (
                <Table.Th key={name}>{formatMoney(report.totals[name])}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        </ScrollTable>
      )}
    </Stack>
  );
}
