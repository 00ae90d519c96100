import { Alert, Anchor, Stack, Tabs, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap } from '../../api/client';
import { ErrorState, LoadingState } from '../../common/states';
import { useHasRole } from '../../auth/use-session';
import { AuditHistory } from '../audit/audit-history';
import { GroupEditor } from './group-editor';
import { GroupHeader } from './group-header';
import { RevisionsTab } from './revisions-tab';
import { ScheduledBanner } from './scheduled-banner';

const TABS = ['group', 'revisions', 'history'] as const;
type Tab = (typeof TABS)[number];

export function FiscalGroupEditPage() {
  const { id } = useParams();
  if (!id)
    return (
      <Stack gap="md">
        <GroupHeader />
        <GroupEditor key="new" />
      </Stack>
    );
  return <ExistingGroup key={id} id={id} />;
}

function ExistingGroup({ id }: { id: string }) {
  const { t } = useTranslation('fiscalGroups');
  // The audit log is an admin's: the fiscal team sees the group and its revisions, without the audit history.
  const seesHistory = useHasRole('admin');
  // The tab and the revision shown are in the URL: the order detail links a revision, and a reload keeps it.
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) && (asked !== 'history' || seesHistory) ? (asked as Tab) : 'group';
  const revisionParam = Number(searchParams.get('revision'));
  const revision = Number.isInteger(revisionParam) && revisionParam > 0 ? revisionParam : undefined;
  const setTab = (next: string | null) => setSearchParams(next && next !== 'group' ? { tab: next } : {}, { replace: true });
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
        {/* A deleted group's revisions stay readable: an order taxed by it still links here. */}
        {notFound && tab === 'revisions' && <RevisionsTab key={revision} groupId={id} initialRevision={revision} />}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <GroupHeader group={query.data} />
      <ScheduledBanner group={query.data} />
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List mb="md">
          <Tabs.Tab value="group">{t('edit.tabs.group')}</Tabs.Tab>
          <Tabs.Tab value="revisions">{t('edit.tabs.revisions')}</Tabs.Tab>
          {seesHistory && <Tabs.Tab value="history">{t('edit.tabs.history')}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="group">
          <GroupEditor group={query.data} />
        </Tabs.Panel>
        <Tabs.Panel value="revisions">
          {tab === 'revisions' && <RevisionsTab key={revision} groupId={id} initialRevision={revision} />}
        </Tabs.Panel>
        {seesHistory && (
          <Tabs.Panel value="history">{tab === 'history' && <AuditHistory targetType="fiscal-group" targetId={id} />}</Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
