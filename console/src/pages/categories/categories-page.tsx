import { Alert, Button, Group, Modal, Pagination, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../list/use-list-page';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap } from '../../api/client';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { formatDateTime } from '../../common/format';
import { CategoryForm, type Category } from './category-form';
import { CategoryHistory } from './category-history';
import { CategoriesCsvImport, downloadCategoriesCsv } from './csv-import';
import { NcmStatusBadge } from './ncm-field';
import { useQuery } from '@tanstack/react-query';

const PAGE_SIZE = 25;

export function CategoriesPage() {
  const { t } = useTranslation('categories');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  // The API lists every category (ordered by productId, no paging): search and pages are local.
  const {
    query,
    values: { q },
    page,
    ...listPage
  } = useListPage({
    filters: ['q'] as const,
    queryKey: () => queryKeys.categories.all,
    queryFn: async () => unwrap(await api.GET('/api/admin/product-fiscal-categories')),
  });
  const [search, setSearch] = useState(q);
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const [viewingHistory, setViewingHistory] = useState<Category | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const matches = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const all = query.data ?? [];
    if (!needle) return all;
    return all.filter((c) => [c.productId, c.productName, c.ncm, c.externalProductId ?? ''].some((v) => v.toLowerCase().includes(needle)));
  }, [query.data, q]);
  const pages = Math.max(1, Math.ceil(matches.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = matches.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  // The NCM table's word on the codes of the page shown: its description, and a flag for an unknown or expired code.
  const shownCodes = [...new Set(shown.map((category) => category.ncm))].filter((code) => /^\d{8}$/.test(code)).join(',');
  const ncmInfo = useQuery({
    queryKey: ['ncm', 'descriptions', shownCodes],
    queryFn: async () => unwrap(await api.GET('/api/admin/ncm/descriptions', { params: { query: { codes: shownCodes } } })),
    enabled: shownCodes !== '',
    staleTime: Infinity,
  });
  const infoOf = (code: string) => ncmInfo.data?.items.find((item) => item.code === code);

  const remove = useMutation({
    mutationFn: async (category: Category) => {
      await unwrap(
        await api.DELETE('/api/admin/product-fiscal-categories/{productId}', { params: { path: { productId: category.productId } } }),
      );
      return category;
    },
    onSuccess: (category) => {
      setDeleting(null);
      setNotice(t('deleted', { productId: category.productId }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.categories.all });
    },
  });

  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    listPage.apply({ q: search });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <Button
            variant="default"
            onClick={() => {
              setExportError(null);
              downloadCategoriesCsv().catch((error: unknown) => setExportError(isProblem(error) ? error.message : String(error)));
            }}
          >
            {t('csv.export')}
          </Button>
          <Button variant="light" onClick={() => setImporting(true)}>
            {t('csv.import')}
          </Button>
          <Button onClick={() => setEditing('new')}>{t('newCategory')}</Button>
        </Group>
      </Group>
      <Text size="sm">{t('intro')}</Text>

      <Paper withBorder p="sm" component="form" role="search" onSubmit={applySearch}>
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t('search')}
            placeholder={t('searchPlaceholder')}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit">{t('searchSubmit')}</Button>
          {q && (
            <Button
              variant="default"
              onClick={() => {
                setSearch('');
                listPage.clear();
              }}
            >
              {t('clearSearch')}
            </Button>
          )}
        </Group>
      </Paper>

      <div aria-live="polite">
        {exportError && (
          <Alert color="red" role="alert">
            {t('csv.exportFailed', { message: exportError })}
          </Alert>
        )}
        {notice && (
          <Alert color="green" role="status" withCloseButton closeButtonLabel={tc('actions.close')} onClose={() => setNotice(null)}>
            {notice}
          </Alert>
        )}
      </div>

      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : matches.length === 0 ? (
        <EmptyState>{q ? t('noMatch', { q }) : t('empty')}</EmptyState>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720} type="native" style={{ position: 'relative' }}>
            <Table striped highlightOnHover aria-label={t('table')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('productId')}</Table.Th>
                  <Table.Th>{t('productName')}</Table.Th>
                  <Table.Th>{t('ncm')}</Table.Th>
                  <Table.Th>{t('externalProductId')}</Table.Th>
                  <Table.Th>{t('createdAt')}</Table.Th>
                  <Table.Th>{t('actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((category) => (
                  <Table.Tr key={category.productId}>
                    <Table.Td>{category.productId}</Table.Td>
                    <Table.Td>{category.productName}</Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm">{category.ncm}</Text>
                        {infoOf(category.ncm) && <NcmStatusBadge status={infoOf(category.ncm)!.status} />}
                      </Group>
                      {infoOf(category.ncm)?.description && (
                        <Text size="xs" c="gray.7" lineClamp={2}>
                          {infoOf(category.ncm)!.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{category.externalProductId ?? '—'}</Table.Td>
                    <Table.Td>{formatDateTime(category.createdAt)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={t('editOf', { productId: category.productId })}
                          onClick={() => setEditing(category)}
                        >
                          {tc('actions.edit')}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={t('historyOf', { productId: category.productId })}
                          onClick={() => setViewingHistory(category)}
                        >
                          {t('history.button')}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          aria-label={t('deleteOf', { productId: category.productId })}
                          onClick={() => {
                            remove.reset();
                            setDeleting(category);
                          }}
                        >
                          {tc('actions.delete')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm">{t('count', { count: matches.length })}</Text>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={current}
                onChange={listPage.goTo}
                aria-label={tc('pagination.label')}
                getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })}
              />
            )}
          </Group>
        </>
      )}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('createTitle') : editing ? t('editTitle', { productId: editing.productId }) : ''}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        {editing !== null && (
          <CategoryForm
            key={editing === 'new' ? 'new' : editing.productId}
            category={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(null)}
            onSaved={(saved) => {
              setNotice(editing === 'new' ? t('created', { productId: saved.productId }) : t('updated', { productId: saved.productId }));
              setEditing(null);
              void queryClient.invalidateQueries({ queryKey: queryKeys.categories.all });
            }}
          />
        )}
      </Modal>

      <Modal
        opened={importing}
        onClose={() => setImporting(false)}
        title={t('csv.importTitle')}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
        size="xl"
      >
        {importing && (
          <CategoriesCsvImport
            onApplied={(report) => {
              setImporting(false);
              setNotice(t('csv.applied', { created: report.counts.created, changed: report.counts.changed }));
              void queryClient.invalidateQueries({ queryKey: queryKeys.categories.all });
            }}
          />
        )}
      </Modal>

      <Modal
        opened={viewingHistory !== null}
        onClose={() => setViewingHistory(null)}
        title={viewingHistory ? t('historyTitle', { productId: viewingHistory.productId }) : ''}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
        size="lg"
      >
        {viewingHistory && <CategoryHistory productId={viewingHistory.productId} />}
      </Modal>

      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('deleteTitle')}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        <Stack>
          <Text>{t('deleteText', { productId: deleting?.productId ?? '', name: deleting?.productName ?? '' })}</Text>
          {remove.isError && (
            <Alert color="red" role="alert">
              {t('deleteFailed', { message: isProblem(remove.error) ? remove.error.message : String(remove.error) })}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              {tc('actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
