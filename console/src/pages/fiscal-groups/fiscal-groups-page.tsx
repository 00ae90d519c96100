import { Anchor, Badge, Button, Group, NativeSelect, Pagination, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_STYLES } from './styles';
import { Link } from 'react-router';
import { useListPage } from '../../list/use-list-page';
import { queryKeys } from '../../api/query-keys';
import { api, unwrap } from '../../api/client';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { isUf, UF_CODES } from './matrix-model';

const PAGE_SIZE = 20;

export function FiscalGroupsPage() {
  const { t } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  const {
    query,
    values: { uf, storeId },
    page,
    ...listPage
  } = useListPage({
    filters: ['uf', 'storeId'] as const,
    queryKey: ({ values, page }) => queryKeys.fiscalGroups.list({ ...values, page }),
    queryFn: async ({ values: { uf, storeId }, page }) =>
      unwrap(
        await api.GET('/api/admin/fiscal-groups', {
          params: {
            query: {
              page,
              pageSize: PAGE_SIZE,
              ...(isUf(uf) ? { uf } : uf ? { uf: uf as never } : {}),
              ...(storeId ? { storeId } : {}),
            },
          },
        }),
      ),
  });
  const [ufInput, setUfInput] = useState(uf);
  const [storeInput, setStoreInput] = useState(storeId);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    listPage.apply({ uf: ufInput, storeId: storeInput });
  };
  const clear = () => {
    setUfInput('');
    setStoreInput('');
    listPage.clear();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>{t('list.title')}</Title>
        <Button component={Link} to="/fiscal-groups/new">
          {t('list.newGroup')}
        </Button>
      </Group>

      <Paper withBorder p="sm" component="form" onSubmit={apply} aria-label={t('list.filters')}>
        <Group align="flex-end" gap="sm">
          <NativeSelect
            label={t('list.uf')}
            value={ufInput}
            data={[{ value: '', label: t('list.anyUf') }, ...UF_CODES.map((code) => ({ value: code, label: code }))]}
            onChange={(event) => setUfInput(event.currentTarget.value)}
          />
          <TextInput
            label={t('list.storeId')}
            description={t('list.storeIdHint')}
            styles={DESCRIPTION_STYLES}
            value={storeInput}
            onChange={(event) => setStoreInput(event.currentTarget.value)}
          />
          <Button type="submit">{t('list.apply')}</Button>
          <Button variant="default" onClick={clear}>
            {t('list.clear')}
          </Button>
        </Group>
      </Paper>

      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <Stack align="center" gap="xs">
          <EmptyState>{t('list.empty')}</EmptyState>
          {storeId && (
            <Button variant="light" component={Link} to={`/fiscal-groups/new?storeId=${encodeURIComponent(storeId)}`}>
              {t('list.newForStore', { storeId })}
            </Button>
          )}
        </Stack>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760} type="native" style={{ position: 'relative' }}>
            <Table striped highlightOnHover aria-label={t('list.table')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('list.name')}</Table.Th>
                  <Table.Th>{t('list.uf')}</Table.Th>
                  <Table.Th>{t('list.regime')}</Table.Th>
                  <Table.Th>{t('list.stores')}</Table.Th>
                  <Table.Th>{t('list.rules')}</Table.Th>
                  <Table.Th>{t('list.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.items.map((group) => (
                  <Table.Tr key={group.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/fiscal-groups/${group.id}`} fw={600}>
                        {group.name}
                      </Anchor>
                      {group.externalId && (
                        <Text size="xs" c="gray.7">
                          {t('list.externalId')}: {group.externalId}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light">{group.uf}</Badge>
                    </Table.Td>
                    <Table.Td>{group.taxRegime ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{t('list.storeCount', { count: group.stores.length })}</Text>
                      <Text size="xs" c="gray.7" lineClamp={2}>
                        {group.stores
                          .slice(0, 3)
                          .map((store) => store.store_id)
                          .join(', ')}
                        {group.stores.length > 3 ? ', …' : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td data-testid="rule-count">{Object.keys(group.taxMatrix ?? {}).length}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="light"
                        component={Link}
                        to={`/fiscal-groups/${group.id}`}
                        aria-label={t('list.editGroup', { name: group.name })}
                      >
                        {tc('actions.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm">
              {tc('pagination.summary', { total: query.data.total, page: query.data.page, pages: Math.max(1, query.data.totalPages) })}
            </Text>
            {query.data.totalPages > 1 && (
              <Pagination
                total={query.data.totalPages}
                value={page}
                onChange={listPage.goTo}
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
