import { Alert, Button, Group, List, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, browserTimeZone, isKnownAction } from './audit-model';
import { api, isProblem, unwrap, type paths } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { isoToLocalInput, localInputToIsoWithOffset } from '../../common/format';
import { PageNav } from '../../common/page-nav';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { useListPage } from '../../list/use-list-page';
import { AuditEventsTable } from './audit-events-table';
import { validationProblemText } from '../../api/validation-problem';

/** The API's filters, kept in the URL under the same names (a link shares the exact list). */
const FILTERS = ['actorType', 'actorId', 'targetType', 'targetId', 'action', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];
const DATE_FILTERS = ['from', 'to'] as const;
// The URL's values go to the API exactly as written (a bad hand-edited one comes back as a 400 naming it).
type AuditQuery = NonNullable<paths['/api/admin/audit-events']['get']['parameters']['query']>;
type AuditCsvQuery = NonNullable<paths['/api/admin/audit-events.csv']['get']['parameters']['query']>;

export function AuditPage() {
  const { t } = useTranslation('audit');
  const { query, ...listPage } = useListPage({
    filters: FILTERS,
    settings: ['pageSize'] as const,
    queryKey: ({ apiQuery }) => queryKeys.auditEvents.list(apiQuery),
    queryFn: async ({ apiQuery }) =>
      unwrap(await api.GET('/api/admin/audit-events', { params: { query: apiQuery as unknown as AuditQuery } })),
  });
  // A bad hand-edited value reaches the API, whose 400 names the parameter: shown at its field.
  const problem = query.isError && isProblem(query.error) && query.error.status === 400 ? query.error : undefined;
  const fieldErrors: Partial<Record<string, string>> = {};
  for (const detail of problem?.details ?? [])
    if (detail.field && detail.problem) fieldErrors[detail.field] = validationProblemText(detail.problem);
  const others = (problem?.details ?? []).filter((detail) => !detail.field || !(FILTERS as readonly string[]).includes(detail.field));

  return (
    <Stack gap="md">
      <Title order={1}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <Text size="sm">{t('timeZone', { zone: browserTimeZone() })}</Text>
      <AuditFilters key={listPage.urlKey} values={listPage.values} errors={fieldErrors} onApply={listPage.apply} onClear={listPage.clear} />
      {problem ? (
        <Alert color="red" role="alert" title={problem.message}>
          {others.length > 0 && (
            <List size="sm">
              {others.map((detail, index) => (
                <List.Item key={index}>{validationProblemText(detail.problem)}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      ) : query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 && query.data.total === 0 ? (
        <EmptyState>{listPage.filtered ? t('noMatch') : t('empty')}</EmptyState>
      ) : (
        <>
          <CsvExport apiQuery={listPage.apiQuery} />
          <AuditEventsTable events={query.data.items} />
          <PageNav page={listPage.page} totalPages={query.data.totalPages} total={query.data.total} onChange={listPage.goTo} />
        </>
      )}
    </Stack>
  );
}

function AuditFilters({
  values,
  errors,
  onApply,
  onClear,
}: {
  values: Record<Filter | 'pageSize', string>;
  errors: Partial<Record<string, string>>;
  onApply: (values: Partial<Record<Filter | 'pageSize', string>>) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('audit');
  // Dates are typed in the browser's wall-clock time and sent with its offset.
  const [draft, setDraft] = useState<Record<Filter, string>>(() => ({
    ...values,
    from: isoToLocalInput(values.from) || values.from,
    to: isoToLocalInput(values.to) || values.to,
  }));
  const set = (name: Filter) => (value: string) => setDraft((current) => ({ ...current, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent: Partial<Record<Filter | 'pageSize', string>> = { ...draft, pageSize: values.pageSize };
    for (const name of DATE_FILTERS) sent[name] = draft[name] ? (localInputToIsoWithOffset(draft[name]) ?? draft[name]) : '';
    onApply(sent);
  };
  const text = (name: Filter) => (
    <TextInput label={t(name)} value={draft[name]} error={errors[name]} onChange={(event) => set(name)(event.currentTarget.value)} />
  );
  return (
    <Paper withBorder p="sm" component="form" role="search" aria-label={t('filters')} onSubmit={submit}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <NativeSelect
            label={t('actorType')}
            value={draft.actorType}
            error={errors.actorType}
            data={[
              { value: '', label: t('any') },
              { value: 'user', label: t('actorTypes.user') },
              { value: 'client', label: t('actorTypes.client') },
            ]}
            onChange={(event) => set('actorType')(event.currentTarget.value)}
          />
          {text('actorId')}
          <NativeSelect
            label={t('targetType')}
            value={draft.targetType}
            error={errors.targetType}
            data={[{ value: '', label: t('any') }, ...AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: t(`targetTypes.${type}`) }))]}
            onChange={(event) => set('targetType')(event.currentTarget.value)}
          />
          {text('targetId')}
          <NativeSelect
            label={t('action')}
            value={draft.action}
            error={errors.action}
            data={[
              { value: '', label: t('any') },
              ...AUDIT_ACTIONS.map((action) => ({ value: action, label: t(`actions.${action}`) })),
              // An action of a newer service typed in the URL stays choosable, as its code.
              ...(draft.action && !isKnownAction(draft.action) ? [{ value: draft.action, label: draft.action }] : []),
            ]}
            onChange={(event) => set('action')(event.currentTarget.value)}
          />
          <TextInput
            label={t('from')}
            type="datetime-local"
            step={1}
            value={draft.from}
            error={errors.from}
            onChange={(event) => set('from')(event.currentTarget.value)}
          />
          <TextInput
            label={t('to')}
            type="datetime-local"
            step={1}
            value={draft.to}
            error={errors.to}
            onChange={(event) => set('to')(event.currentTarget.value)}
          />
        </SimpleGrid>
        <Group gap="sm">
          <Button type="submit">{t('apply')}</Button>
          <Button variant="default" onClick={onClear}>
            {t('clear')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The filtered log as CSV (every page): the API's export with the list's filters, saved as a file. */
function CsvExport({ apiQuery }: { apiQuery: Partial<Record<string, string>> }) {
  const { t } = useTranslation('audit');
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const filters = Object.fromEntries(Object.entries(apiQuery).filter(([name]) => name !== 'page' && name !== 'pageSize'));
  async function download() {
    setFailure(null);
    setPending(true);
    try {
      const blob = unwrap(
        await api.GET('/api/admin/audit-events.csv', { params: { query: filters as unknown as AuditCsvQuery }, parseAs: 'blob' }),
      );
      const url = URL.createObjectURL(blob as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'audit-events.csv';
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setFailure(isProblem(error) ? error.message : String(error));
    } finally {
      setPending(false);
    }
  }
  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Button variant="default" onClick={() => void download()} loading={pending}>
          {t('exportCsv')}
        </Button>
        <Text size="sm" c="gray.7">
          {t('exportHint')}
        </Text>
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {t('exportFailed', { message: failure })}
        </Alert>
      )}
    </Stack>
  );
}
