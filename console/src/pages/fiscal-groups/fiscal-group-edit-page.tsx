import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap } from '../../api/client';
import { ErrorState, LoadingState } from '../../common/states';
import { GroupEditor } from './group-editor';

export function FiscalGroupEditPage() {
  const { id } = useParams();
  if (!id) return <GroupEditor key="new" />;
  return <ExistingGroup key={id} id={id} />;
}

function ExistingGroup({ id }: { id: string }) {
  const { t } = useTranslation('fiscalGroups');
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
  return <GroupEditor group={query.data} />;
}
