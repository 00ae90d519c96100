import { Alert, Anchor, Stack, Tabs, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap } from '../../api/client';
import { ErrorState, LoadingState } from '../../common/states';
import { useHasRole } from '../../auth/use-session';
import { AuditHistory } from '../audit/audit-history';
import { GroupEditor } from './group-editor';

export function FiscalGroupEditPage() {
  const { id } = useParams();
  if (!id) return <GroupEditor key="new" />;
  return <ExistingGroup key={id} id={id} />;
}

function ExistingGroup({ id }: { id: string }) {
  const { t } = useTranslation('fiscalGroups');
  // The audit log is an admin's: the fiscal team sees the group without its History tab.
  const seesHistory = useHasRole('admin');
  const [tab, setTab] = useState<string | null>('group');
  const query = useQuery({
    queryKey: queryKeys.fiscalGroups.detail(id),
    queryFn: async () => unwrap(await api.GET('/api/admin/fiscal-groups/{id}', { params: { path: { id } } })),
  });
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    const problem = query.error as unknown;
    const notFound = isProblem(problem) && (problem.status === 404 || problem.status === 400);
    return (
      <Stack>
        <Title order={1}>{t('edit.editTitle', { name: '' })}</Title>
        {notFound ? (
          <Alert color="yellow">{t('edit.notFound')}</Alert>
        ) : (
          <ErrorState error={problem} onRetry={() => void query.refetch()} />
        )}
        <Anchor component={Link} to="/fiscal-groups">
          {t('edit.back')}
        </Anchor>
      </Stack>
    );
  }
  if (!seesHistory) return <GroupEditor group={query.data} />;
  return (
    <Tabs value={tab} onChange={setTab}>
      <Tabs.List mb="md">
        <Tabs.Tab value="group">{t('edit.tabs.group')}</Tabs.Tab>
        <Tabs.Tab value="history">{t('edit.tabs.history')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="group">
        <GroupEditor group={query.data} />
      </Tabs.Panel>
      <Tabs.Panel value="history">{tab === 'history' && <AuditHistory targetType="fiscal-group" targetId={id} />}</Tabs.Panel>
    </Tabs>
  );
}
