import { Alert, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { ErrorState, LoadingState } from '../../common/states';
import { ORDER_STATUSES } from '../orders/status-badge';
import { aliasProblems, sameAliases } from './alias-table';

type Alias = Schemas['StatusAliasDto'];

/** The alias table, edited as a whole and saved with one PUT (the API replaces it in one transaction). */
export function StatusAliasesPage() {
  const { t } = useTranslation('statusAliases');
  const stored = useQuery({
    queryKey: queryKeys.statusAliases,
    queryFn: async () => unwrap(await api.GET('/api/admin/status-aliases')).aliases,
  });
  // Kept here: a save remounts the editor (its key is the stored table), and the notice must outlive that.
  const [saved, setSaved] = useState<number | null>(null);
  if (stored.isPending) return <LoadingState />;
  if (stored.isError) return <ErrorState error={stored.error} onRetry={() => void stored.refetch()} />;
  return (
    <Stack gap="md">
      <Title order={1}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <div aria-live="polite">
        {saved !== null && (
          <Alert color="green" role="status">
            {t('saved', { count: saved })}
          </Alert>
        )}
      </div>
      {/* Keyed by the stored table: a save or a refetch starts the editor again from what is stored. */}
      <AliasEditor key={JSON.stringify(stored.data)} stored={stored.data} onSaved={setSaved} onEdit={() => setSaved(null)} />
    </Stack>
  );
}

function AliasEditor({ stored, onSaved, onEdit }: { stored: Alias[]; onSaved: (count: number) => void; onEdit: () => void }) {
  const { t } = useTranslation('statusAliases');
  const { t: tOrders } = useTranslation('orders');
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<Alias[]>(stored);
  const dirty = !sameAliases(rows, stored);

  const save = useMutation({
    mutationFn: async (aliases: Alias[]) => unwrap(await api.PUT('/api/admin/status-aliases', { body: { aliases } })).aliases,
    onSuccess: (aliases) => {
      onSaved(aliases.length);
      queryClient.setQueryData(queryKeys.statusAliases, aliases);
    },
  });
  const problems = save.isError && isProblem(save.error) ? aliasProblems(save.error) : { byRow: new Map<number, string[]>(), rest: [] };
  const statusOptions = ORDER_STATUSES.map((status) => ({ value: status, label: tOrders(`status.${status}`) }));
  const change = (index: number, patch: Partial<Alias>) => {
    onEdit();
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  };

  return (
    <Stack gap="sm">
      <div aria-live="polite">
        {save.isError && (
          <Alert
            color="red"
            role="alert"
            title={t('saveFailed', { message: isProblem(save.error) ? save.error.message : String(save.error) })}
          >
            {problems.rest.map((problem, index) => (
              <Text size="sm" key={index}>
                {[problem.field, problem.problem].filter(Boolean).join(': ')}
              </Text>
            ))}
          </Alert>
        )}
      </div>
      {rows.length === 0 && <Text c="gray.7">{t('empty')}</Text>}
      <Table aria-label={t('table')} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('label')}</Table.Th>
            <Table.Th>{t('status')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const rowProblems = problems.byRow.get(index);
            return (
              <Table.Tr key={index}>
                <Table.Td>
                  <TextInput
                    aria-label={t('labelOf', { row: index + 1 })}
                    value={row.label}
                    maxLength={100}
                    error={rowProblems?.map((problem) => t('rowProblem', { row: index + 1, problem })).join('; ')}
                    onChange={(event) => change(index, { label: event.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={t('statusOf', { row: index + 1 })}
                    value={row.status}
                    data={statusOptions}
                    onChange={(event) => change(index, { status: event.currentTarget.value as Alias['status'] })}
                  />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={t('removeOf', { row: index + 1, label: row.label })}
                    onClick={() => {
                      onEdit();
                      setRows((current) => current.filter((_, i) => i !== index));
                    }}
                  >
                    {t('remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Button variant="default" onClick={() => setRows((current) => [...current, { label: '', status: 'READY' }])}>
          {t('add')}
        </Button>
        <Group gap="sm">
          {dirty && (
            <Badge color="yellow.4" c="black">
              {t('unsaved')}
            </Badge>
          )}
          <Button
            variant="default"
            disabled={!dirty}
            onClick={() => {
              save.reset();
              setRows(stored);
            }}
          >
            {t('discard')}
          </Button>
          <Button disabled={!dirty} loading={save.isPending} onClick={() => save.mutate(rows)}>
            {t('save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
