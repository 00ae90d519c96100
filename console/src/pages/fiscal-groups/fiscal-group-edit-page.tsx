import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  CloseButton,
  Group,
  List,
  Modal,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_STYLES } from './styles';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { api, isProblem, unwrap, type ApiProblem } from '../../api/client';
import { ErrorState, LoadingState } from '../../common/states';
import { CsvPanel } from './csv-panel';
import {
  duplicateNcms,
  matrixFromRows,
  rowsFromMatrix,
  sortDetails,
  storeConflicts,
  UF_CODES,
  type FiscalGroup,
  type MatrixRow,
  type StoreConflict,
} from './matrix-model';
import { TaxMatrixTable } from './tax-matrix-table';

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

interface StoreRow {
  uid: string;
  store_id: string;
  store_name: string;
}

interface Draft {
  name: string;
  externalId: string;
  uf: string;
  taxRegime: string;
  includeIcms: boolean;
  stores: StoreRow[];
  rows: MatrixRow[];
}

let storeCounter = 0;
const storeUid = () => `s${++storeCounter}`;

function draftOf(group: FiscalGroup | undefined, storeId: string | null): Draft {
  return {
    name: group?.name ?? '',
    externalId: group?.externalId ?? '',
    uf: group?.uf ?? '',
    taxRegime: group?.taxRegime ?? '',
    includeIcms: group?.settings?.includeIcmsInPisCofinsBase === true,
    stores: group
      ? group.stores.map((store) => ({ uid: storeUid(), ...store }))
      : storeId
        ? [{ uid: storeUid(), store_id: storeId, store_name: '' }]
        : [],
    rows: rowsFromMatrix(group?.taxMatrix),
  };
}

function bodyOf(draft: Draft) {
  return {
    name: draft.name.trim(),
    uf: draft.uf as (typeof UF_CODES)[number],
    ...(draft.externalId.trim() ? { externalId: draft.externalId.trim() } : {}),
    ...(draft.taxRegime.trim() ? { taxRegime: draft.taxRegime.trim() } : {}),
    stores: draft.stores.map((store) => ({ store_id: store.store_id.trim(), store_name: store.store_name.trim() })),
    taxMatrix: matrixFromRows(draft.rows),
    settings: { includeIcmsInPisCofinsBase: draft.includeIcms },
  };
}

interface SaveFailure {
  problem: ApiProblem;
  sorted: ReturnType<typeof sortDetails>;
  conflicts: StoreConflict[];
}

function GroupEditor({ group }: { group?: FiscalGroup }) {
  const { t } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const [draft, setDraft] = useState<Draft>(() => draftOf(group, searchParams.get('storeId')));
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [saved, setSaved] = useState<'created' | 'saved' | null>(
    (location.state as { created?: boolean } | null)?.created ? 'created' : null,
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const duplicates = useMemo(() => duplicateNcms(draft.rows), [draft.rows]);

  const save = useMutation({
    mutationFn: async (current: Draft): Promise<FiscalGroup> => {
      const body = bodyOf(current);
      if (group) return unwrap(await api.PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id: group.id } }, body }));
      return unwrap(await api.POST('/api/admin/fiscal-groups', { body }));
    },
    onMutate: () => {
      setFailure(null);
      setSaved(null);
    },
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.fiscalGroups.detail(result.id), result);
      void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.lists });
      if (!group) {
        void navigate(`/fiscal-groups/${result.id}`, { replace: true, state: { created: true } });
        return;
      }
      setDraft((current) => ({ ...current, rows: rowsFromMatrix(result.taxMatrix) }));
      setSaved('saved');
    },
    onError: async (error, current) => {
      const problem: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      let conflicts = problem.status === 409 ? storeConflicts(problem.details) : [];
      if (problem.status === 409 && conflicts.length === 0 && !problem.details?.some((d) => d.field === 'externalId')) {
        conflicts = await lookUpHolders(
          current.stores.map((store) => store.store_id.trim()),
          group?.id,
        );
      }
      const held = new Set(conflicts.map((c) => c.storeId));
      const details = (problem.details ?? []).filter(
        (d) => !(d.field === 'stores' && [...held].some((id) => d.problem?.includes(`"${id}"`))),
      );
      setFailure({ problem, sorted: sortDetails(details), conflicts });
    },
  });

  const remove = useMutation({
    mutationFn: async () => {
      if (!group) return;
      await unwrap(await api.DELETE('/api/admin/fiscal-groups/{id}', { params: { path: { id: group.id } } }));
    },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: queryKeys.fiscalGroups.detail(group!.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.lists });
      void navigate('/fiscal-groups');
    },
  });

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const fieldError = (path: string) => failure?.sorted.byField[path]?.join('; ');
  const conflictOf = (storeId: string) => failure?.conflicts.find((c) => c.storeId === storeId.trim());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (duplicates.length) return;
    save.mutate(draft);
  };

  // Problems of cells whose NCM is no longer in the table, and anything else not shown at a field.
  const unplaced = failure
    ? [
        ...failure.sorted.rest,
        ...Object.entries(failure.sorted.byCell)
          .filter(([ncm]) => !draft.rows.some((row) => row.ncm.trim() === ncm))
          .flatMap(([ncm, cells]) => Object.entries(cells).map(([field, problems]) => `taxMatrix.${ncm}.${field}: ${problems.join('; ')}`)),
        ...Object.entries(failure.sorted.byField)
          .filter(([field]) => field === 'stores' || field.startsWith('settings'))
          .map(([field, problems]) => `${field}: ${problems.join('; ')}`),
      ]
    : [];

  const title = group ? t('edit.editTitle', { name: group.name }) : t('edit.newTitle');

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/fiscal-groups" size="sm">
        {t('edit.back')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Title order={1}>{title}</Title>
        {group && (
          <Group gap="sm">
            {group.stores.length > 0 && (
              <Button variant="default" component={Link} to={`/calculator?storeId=${encodeURIComponent(group.stores[0]!.store_id)}`}>
                {t('edit.tryInCalculator')}
              </Button>
            )}
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
              {t('edit.deleteGroup')}
            </Button>
          </Group>
        )}
      </Group>

      <div aria-live="polite">
        {saved && (
          <Alert color="green" role="status">
            {saved === 'created' ? t('edit.created') : t('edit.saved')}
          </Alert>
        )}
      </div>

      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && (
            <Alert color="red" role="alert" title={t('edit.saveFailed', { message: failure.problem.message })}>
              {failure.conflicts.length > 0 && (
                <Stack gap={4} mb={unplaced.length ? 'sm' : 0} data-testid="store-conflicts">
                  <Text fw={600} size="sm">
                    {t('edit.conflictTitle')}
                  </Text>
                  {failure.conflicts.map((conflict) => (
                    <Text size="sm" key={conflict.storeId}>
                      {conflict.groupId ? (
                        <>
                          {t('edit.conflict', { storeId: conflict.storeId })}{' '}
                          <Anchor component={Link} to={`/fiscal-groups/${conflict.groupId}`} inherit>
                            {conflict.groupName || conflict.groupId}
                          </Anchor>
                          .
                        </>
                      ) : (
                        t('edit.conflictUnknown', { storeId: conflict.storeId })
                      )}
                    </Text>
                  ))}
                </Stack>
              )}
              {unplaced.length > 0 && (
                <>
                  <Text fw={600} size="sm">
                    {t('edit.otherProblems')}
                  </Text>
                  <List size="sm">
                    {unplaced.map((text, index) => (
                      <List.Item key={index}>{text}</List.Item>
                    ))}
                  </List>
                </>
              )}
            </Alert>
          )}

          <Paper withBorder p="md">
            <Stack gap="sm">
              <Title order={2} size="h3">
                {t('edit.general')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('edit.name')}
                  required
                  value={draft.name}
                  onChange={(event) => set('name', event.currentTarget.value)}
                  error={fieldError('name')}
                />
                <TextInput
                  label={t('edit.externalId')}
                  description={t('edit.externalIdHint')}
                  styles={DESCRIPTION_STYLES}
                  value={draft.externalId}
                  onChange={(event) => set('externalId', event.currentTarget.value)}
                  error={fieldError('externalId')}
                />
                <NativeSelect
                  label={t('edit.uf')}
                  required
                  value={draft.uf}
                  data={[{ value: '', label: t('edit.chooseUf') }, ...UF_CODES.map((uf) => ({ value: uf, label: uf }))]}
                  onChange={(event) => set('uf', event.currentTarget.value)}
                  error={fieldError('uf')}
                />
                <TextInput
                  label={t('edit.taxRegime')}
                  description={t('edit.taxRegimeHint')}
                  styles={DESCRIPTION_STYLES}
                  value={draft.taxRegime}
                  onChange={(event) => set('taxRegime', event.currentTarget.value)}
                  error={fieldError('taxRegime')}
                />
              </SimpleGrid>
              <Checkbox
                label={t('edit.includeIcms')}
                description={t('edit.includeIcmsHint')}
                styles={DESCRIPTION_STYLES}
                checked={draft.includeIcms}
                onChange={(event) => set('includeIcms', event.currentTarget.checked)}
                error={fieldError('settings.includeIcmsInPisCofinsBase')}
              />
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Stack gap="sm">
              <Title order={2} size="h3">
                {t('edit.stores')}
              </Title>
              {draft.stores.length === 0 && <Text c="gray.7">{t('edit.storesEmpty')}</Text>}
              {draft.stores.map((store, index) => {
                const conflict = conflictOf(store.store_id);
                const idError = [
                  fieldError(`stores.${index}.store_id`),
                  conflict
                    ? `${t('edit.conflict', { storeId: conflict.storeId })} ${conflict.groupName ?? conflict.groupId ?? ''}`.trim()
                    : undefined,
                ]
                  .filter(Boolean)
                  .join('; ');
                const updateStore = (change: Partial<StoreRow>) =>
                  set(
                    'stores',
                    draft.stores.map((s) => (s.uid === store.uid ? { ...s, ...change } : s)),
                  );
                return (
                  <Group key={store.uid} align="flex-start" wrap="nowrap" gap="xs">
                    <SimpleGrid cols={{ base: 1, sm: 2 }} style={{ flex: 1 }} spacing="xs">
                      <TextInput
                        aria-label={t('edit.storeIdRow', { n: index + 1 })}
                        placeholder={t('edit.storeId')}
                        value={store.store_id}
                        onChange={(event) => updateStore({ store_id: event.currentTarget.value })}
                        error={idError || undefined}
                      />
                      <TextInput
                        aria-label={t('edit.storeNameRow', { n: index + 1 })}
                        placeholder={t('edit.storeName')}
                        value={store.store_name}
                        onChange={(event) => updateStore({ store_name: event.currentTarget.value })}
                        error={fieldError(`stores.${index}.store_name`)}
                      />
                    </SimpleGrid>
                    <CloseButton
                      mt={6}
                      aria-label={t('edit.removeStore', { id: store.store_id || index + 1 })}
                      onClick={() =>
                        set(
                          'stores',
                          draft.stores.filter((s) => s.uid !== store.uid),
                        )
                      }
                    />
                  </Group>
                );
              })}
              <Group>
                <Button variant="light" onClick={() => set('stores', [...draft.stores, { uid: storeUid(), store_id: '', store_name: '' }])}>
                  {t('edit.addStore')}
                </Button>
              </Group>
            </Stack>
          </Paper>

          <Paper withBorder p="md">
            <Stack gap="sm">
              <Title order={2} size="h3">
                {t('edit.matrix')}
              </Title>
              <Text size="sm">{t('edit.matrixIntro')}</Text>
              <TaxMatrixTable
                rows={draft.rows}
                onChange={(rows) => set('rows', rows)}
                problems={failure?.sorted.byCell ?? {}}
                duplicates={duplicates}
              />
            </Stack>
          </Paper>

          <Group>
            <Button type="submit" loading={save.isPending}>
              {group ? tc('actions.save') : tc('actions.create')}
            </Button>
            <Button variant="default" component={Link} to="/fiscal-groups">
              {tc('actions.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>

      {group && (
        <CsvPanel
          groupId={group.id}
          onImported={(result) => {
            queryClient.setQueryData(queryKeys.fiscalGroups.detail(result.id), result);
            void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.lists });
            setFailure(null);
            setDraft((current) => ({ ...current, rows: rowsFromMatrix(result.taxMatrix) }));
          }}
        />
      )}

      <Modal
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={t('edit.deleteTitle')}
        centered
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        <Stack>
          <Text>{t('edit.deleteText', { name: group?.name ?? '' })}</Text>
          {remove.isError && (
            <Alert color="red" role="alert">
              {t('edit.deleteFailed', { message: isProblem(remove.error) ? remove.error.message : String(remove.error) })}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {tc('actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** When the 409 does not name the holder: ask the API which group holds each store. */
async function lookUpHolders(storeIds: string[], ownId: string | undefined): Promise<StoreConflict[]> {
  const found = await Promise.all(
    storeIds
      .filter((id) => id)
      .map(async (storeId): Promise<StoreConflict | undefined> => {
        const result = await api.GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId } } });
        if (!result.data || result.data.id === ownId) return undefined;
        return { storeId, groupId: result.data.id, groupName: result.data.name };
      }),
  );
  return found.filter((conflict): conflict is StoreConflict => !!conflict);
}
