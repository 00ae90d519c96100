import { Button, Group, NativeSelect, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { ScrollTable } from '../../common/display';
import { formatDateTime } from '../../common/format';
import { PageNav } from '../../common/page-nav';
import { StateBadge } from '../../common/state-badge';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { diffRevisions, type Revision } from './revision-diff';
import { RevisionDiffView } from './revision-diff-view';

const STATUS_TONES = { scheduled: 'warn', 'in-force': 'on', past: 'off', cancelled: 'off' } as const;

function useRevision(groupId: string, revision: number) {
  return useQuery({
    queryKey: queryKeys.fiscalGroups.revision(groupId, revision),
    queryFn: async () =>
      unwrap(await api.GET('/api/admin/fiscal-groups/{id}/revisions/{revision}', { params: { path: { id: groupId, revision } } })),
    enabled: revision > 0,
    // A revision's content never changes; only its status does, which the list shows.
    staleTime: Infinity,
  });
}

/**
 * The Revisions tab: every revision of the group (who, when, from when, its status) and the diff
 * between any two. `initialRevision` (from the URL, e.g. the order detail's link) is shown against
 * the one before it.
 */
export function RevisionsTab({ groupId, initialRevision }: { groupId: string; initialRevision?: number }) {
  const { t } = useTranslation('fiscalGroups');
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<{ from: number; to: number } | null>(
    initialRevision ? { from: initialRevision - 1, to: initialRevision } : null,
  );
  const list = useQuery({
    queryKey: queryKeys.fiscalGroups.revisionPage(groupId, page),
    queryFn: async () =>
      unwrap(await api.GET('/api/admin/fiscal-groups/{id}/revisions', { params: { path: { id: groupId }, query: { page } } })),
    placeholderData: keepPreviousData,
  });
  // Revisions are numbered 1, 2, 3... per group: the count is the newest number.
  const newest = list.data?.total ?? 0;
  const pair = chosen ?? { from: Math.max(newest - 1, 0), to: newest };
  const from = useRevision(groupId, pair.from);
  const to = useRevision(groupId, pair.to);

  if (list.isPending) return <LoadingState />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.items.length === 0) return <EmptyState>{t('revisions.empty')}</EmptyState>;

  const numbers = Array.from({ length: newest }, (_, index) => newest - index);
  const option = (n: number) => ({ value: String(n), label: String(n) });
  const choose = (next: { from: number; to: number }) => setChosen(next);

  return (
    <Stack gap="md">
      <Text size="sm">{t('revisions.intro')}</Text>
      <ScrollTable label={t('revisions.table')} minWidth={820} striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('revisions.revision')}</Table.Th>
            <Table.Th scope="col">{t('revisions.kind')}</Table.Th>
            <Table.Th scope="col">{t('revisions.actor')}</Table.Th>
            <Table.Th scope="col">{t('revisions.createdAt')}</Table.Th>
            <Table.Th scope="col">{t('revisions.effectiveFrom')}</Table.Th>
            <Table.Th scope="col">{t('revisions.status')}</Table.Th>
            <Table.Th scope="col">{t('revisions.compare')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.data.items.map((revision) => (
            <RevisionRow
              key={revision.revision}
              revision={revision}
              selected={revision.revision === pair.to}
              onCompare={() => choose({ from: revision.revision - 1, to: revision.revision })}
            />
          ))}
        </Table.Tbody>
      </ScrollTable>
      <PageNav page={page} totalPages={list.data.totalPages} total={list.data.total} onChange={setPage} />

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group gap="md" align="flex-end" wrap="wrap">
            <NativeSelect
              label={t('revisions.from')}
              value={String(pair.from)}
              data={[{ value: '0', label: t('revisions.nothing') }, ...numbers.map(option)]}
              onChange={(event) => choose({ ...pair, from: Number(event.currentTarget.value) })}
            />
            <NativeSelect
              label={t('revisions.to')}
              value={String(pair.to)}
              data={numbers.map(option)}
              onChange={(event) => choose({ ...pair, to: Number(event.currentTarget.value) })}
            />
          </Group>
          <Title order={2} size="h4" aria-live="polite">
            {pair.from > 0 ? t('revisions.diffTitle', { from: pair.from, to: pair.to }) : t('revisions.diffTitleFirst', { to: pair.to })}
          </Title>
          {to.isError || from.isError ? (
            <ErrorState error={to.error ?? from.error} onRetry={() => void Promise.all([to.refetch(), from.refetch()])} />
          ) : to.data && (pair.from === 0 || from.data) ? (
            <RevisionDiffView diff={diffRevisions(pair.from > 0 ? from.data!.group : null, to.data.group)} />
          ) : (
            <LoadingState />
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

function RevisionRow({ revision, selected, onCompare }: { revision: Revision; selected: boolean; onCompare: () => void }) {
  const { t } = useTranslation('fiscalGroups');
  const cancelled = revision.cancelledAt
    ? revision.cancelledBy
      ? t('revisions.cancelledBy', { at: formatDateTime(revision.cancelledAt), name: revision.cancelledBy.name })
      : t('revisions.cancelledAt', { at: formatDateTime(revision.cancelledAt) })
    : null;
  return (
    <Table.Tr data-testid={`revision-${revision.revision}`} aria-current={selected ? 'true' : undefined} fw={selected ? 600 : undefined}>
      <Table.Td>{revision.revision}</Table.Td>
      <Table.Td>{t(`revisions.kinds.${revision.kind}`)}</Table.Td>
      <Table.Td>{revision.actor?.name ?? t('revisions.serverActor')}</Table.Td>
      <Table.Td>{formatDateTime(revision.createdAt)}</Table.Td>
      <Table.Td>{formatDateTime(revision.effectiveFrom)}</Table.Td>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          <StateBadge tone={STATUS_TONES[revision.status]}>{t(`revisions.statuses.${revision.status}`)}</StateBadge>
          {cancelled && <Text size="xs">{cancelled}</Text>}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Button
          size="xs"
          variant="default"
          onClick={onCompare}
          aria-label={t('revisions.compareWithPrevious', { revision: revision.revision })}
        >
          {t('revisions.compare')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
