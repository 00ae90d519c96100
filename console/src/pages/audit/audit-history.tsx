import { Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditTargetType } from './audit-model';
import { api, unwrap } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { PageNav } from '../../common/page-nav';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { AuditEventsTable } from './audit-events-table';

/** The History tab of a fiscal group or a client: the audit events of that one target. Its page is not in the URL (a tab of a page). */
export function AuditHistory({ targetType, targetId }: { targetType: AuditTargetType; targetId: string }) {
  const { t } = useTranslation('audit');
  const [page, setPage] = useState(1);
  const keyQuery = { targetType, targetId, page: String(page) };
  const query = useQuery({
    queryKey: queryKeys.auditEvents.list(keyQuery),
    queryFn: async () => unwrap(await api.GET('/api/admin/audit-events', { params: { query: { targetType, targetId, page } } })),
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Stack gap="sm">
      <Text size="sm">{t('historyIntro', { type: t(`targetTypes.${targetType}`) })}</Text>
      {query.data.items.length === 0 ? (
        <EmptyState>{t('historyEmpty')}</EmptyState>
      ) : (
        <>
          <AuditEventsTable events={query.data.items} showTarget={false} />
          <PageNav page={page} totalPages={query.data.totalPages} total={query.data.total} onChange={setPage} />
        </>
      )}
    </Stack>
  );
}
