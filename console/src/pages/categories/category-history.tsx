import { List, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime } from '../../common/format';
import { PageNav } from '../../common/page-nav';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';

type Entry = Schemas['ProductCategoryHistoryEntryDto'];

/** "before → after" of one field, or undefined when the entry leaves it as it was. */
function change(before: string | null | undefined, after: string | null | undefined, none: string): string | undefined {
  if (before === after) return undefined;
  return `${before ?? none} → ${after ?? none}`;
}

/** What an entry did: its NCM before → after (shown even when unchanged: the orders are taxed by it) and any other field it changed. */
export function describeEntry(entry: Entry, none: string): { ncm: string; externalProductId?: string; productName?: string } {
  const ncm = change(entry.before?.ncm, entry.after?.ncm, none) ?? entry.after?.ncm ?? entry.before?.ncm ?? none;
  const externalProductId =
    entry.before && entry.after ? change(entry.before.externalProductId, entry.after.externalProductId, none) : undefined;
  const productName = entry.before && entry.after ? change(entry.before.productName, entry.after.productName, none) : undefined;
  return { ncm, externalProductId, productName };
}

/** A category's history, newest first: each creation, NCM change and deletion with its time, actor and before → after. */
export function CategoryHistory({ productId }: { productId: string }) {
  const { t } = useTranslation('categories');
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: queryKeys.categories.history(productId, page),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/admin/product-fiscal-categories/{productId}/history', { params: { path: { productId }, query: { page } } }),
      ),
    placeholderData: keepPreviousData,
  });

  if (history.isPending) return <LoadingState />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  if (history.data.items.length === 0) return <EmptyState>{t('history.empty')}</EmptyState>;

  const none = t('history.none');
  return (
    <Stack gap="sm">
      <List listStyleType="none" spacing="sm" aria-label={t('history.list', { productId })}>
        {history.data.items.map((entry, index) => {
          const described = describeEntry(entry, none);
          return (
            <List.Item key={`${entry.at}-${index}`} data-testid="category-history-entry">
              <Text size="sm" fw={600}>
                {t(`history.kinds.${entry.kind}`)} · {formatDateTime(entry.at)} · {entry.actor?.name ?? t('history.noActor')}
              </Text>
              <Text size="sm">{t('history.ncm', { change: described.ncm })}</Text>
              {described.externalProductId && (
                <Text size="sm">{t('history.externalProductId', { change: described.externalProductId })}</Text>
              )}
              {described.productName && <Text size="sm">{t('history.productName', { change: described.productName })}</Text>}
            </List.Item>
          );
        })}
      </List>
      <PageNav page={page} totalPages={history.data.totalPages} total={history.data.total} onChange={setPage} />
    </Stack>
  );
}
