import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, isProblem, unwrap, type ApiProblem } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime } from '../../common/format';
import { CsvPanel } from './csv-panel';
import { GroupFields } from './group-fields';
import { groupBody, groupFormValues, groupSchema, type GroupFormValues } from './group-form';
import { newestScheduled, scheduleBlockers, scheduleRequest } from './group-requests';
import { ImpactPanel, useImpactPreview } from './impact-panel';
import { ScheduleModal } from './schedule-modal';
import { GroupStores } from './group-stores';
import { decimalSeparatorOf, duplicateNcms, rowsFromMatrix, type FiscalGroup } from './matrix-model';
import { readSaveFailure, type SaveFailure } from './save-failure';
import { SaveFailureAlert } from './save-failure-alert';
import { TaxMatrixTable } from './tax-matrix-table';

/** The API's field problems and store conflicts, as the form's errors by field path (`name`, `stores.0.store_id`, ...). */
function fieldErrorsOf(failure: SaveFailure, values: GroupFormValues, conflictText: (storeId: string) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, problems] of Object.entries(failure.sorted.byField)) errors[path] = problems.join('; ');
  values.stores.forEach((store, index) => {
    const conflict = failure.conflicts.find((c) => c.storeId === store.store_id.trim());
    if (!conflict) return;
    const path = `stores.${index}.store_id`;
    const text = `${conflictText(conflict.storeId)} ${conflict.groupName ?? conflict.groupId ?? ''}`.trim();
    errors[path] = errors[path] ? `${errors[path]}; ${text}` : text;
  });
  return errors;
}

/** Create (no `group`) or edit a fiscal group: its fields, stores and tax matrix, checked by the schema, then by the API. */
export function GroupEditor({ group }: { group?: FiscalGroup }) {
  const { t, i18n } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  // Rates are shown as the language writes them (18,5 in pt-BR); either separator is read back.
  const decimal = decimalSeparatorOf(i18n.language);
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const schema = useMemo(() => groupSchema((key, values) => t(`edit.validation.${key}`, values ?? {})), [t]);
  const form = useForm<GroupFormValues>({
    initialValues: groupFormValues(group, searchParams.get('storeId'), decimal),
    validate: schemaResolver(schema, { sync: true }),
  });
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const [saved, setSaved] = useState<string | null>((location.state as { created?: boolean } | null)?.created ? t('edit.created') : null);
  const [scheduling, setScheduling] = useState(false);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const { rows } = form.getValues();
  const duplicates = useMemo(() => duplicateNcms(rows), [rows]);
  const blockers = group ? scheduleBlockers(group, form.getValues()) : [];

  /** The API's 400 of a save, a schedule or a preview: its problems at their fields, and the rest above the form. */
  const showFailure = async (error: unknown, values: GroupFormValues) => {
    const read = await readSaveFailure(
      error,
      values.stores.map((store) => store.store_id.trim()),
      group?.id,
    );
    setFailure(read);
    form.setErrors(fieldErrorsOf(read, values, (storeId) => t('edit.conflict', { storeId })));
  };
  const preview = useImpactPreview(group?.id, (error) => void showFailure(error, form.getValues()));

  /** The form's values when the schema and the matrix's NCMs accept them, to send. */
  const checkedValues = (): GroupFormValues | undefined => {
    if (form.validate().hasErrors || duplicates.length) return undefined;
    return form.getValues();
  };

  const schedule = useMutation({
    mutationFn: async ({ values, instant }: { values: GroupFormValues; instant: string }): Promise<FiscalGroup> => {
      const request = scheduleRequest(group!.id, values, instant);
      if (!request) throw { status: 0, message: t('schedule.chooseInstant') };
      return unwrap(await api.PUT('/api/admin/fiscal-groups/{id}', request));
    },
    onMutate: () => {
      setFailure(null);
      setSaved(null);
      setScheduleError(null);
    },
    onSuccess: (result) => {
      queryClient.setQueryData(queryKeys.fiscalGroups.detail(result.id), result);
      void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.revisions(result.id) });
      // The group in force is unchanged until then: the editor shows it again, the banner the scheduled change.
      form.setValues(groupFormValues(result, null, decimal));
      form.resetDirty();
      // The preview was of the edits just scheduled, which the editor no longer holds.
      preview.close();
      setScheduling(false);
      const made = newestScheduled(result);
      if (made) setSaved(t('schedule.scheduled', { revision: made.revision, at: formatDateTime(made.effectiveFrom) }));
    },
    onError: async (error, { values }) => {
      // The dialog stays open with the API's words (a past instant is a problem of effectiveFrom, shown nowhere else).
      const problem: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      const details = (problem.details ?? []).map((d) => `${d.field ?? ''}: ${d.problem ?? ''}`).join('; ');
      setScheduleError(t('schedule.failed', { message: details ? `${problem.message} (${details})` : problem.message }));
      await showFailure(error, values);
    },
  });

  const save = useMutation({
    mutationFn: async (values: GroupFormValues): Promise<FiscalGroup> => {
      const body = groupBody(values);
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
      void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.revisions(result.id) });
      form.setFieldValue('rows', rowsFromMatrix(result.taxMatrix, decimal));
      setSaved(t('edit.saved'));
    },
    onError: (error, values) => showFailure(error, values),
  });

  const onSubmit = form.onSubmit((values) => {
    if (duplicates.length) return;
    save.mutate(values);
  });

  return (
    <Stack gap="md">
      <div aria-live="polite">
        {saved && (
          <Alert color="green" role="status">
            {saved}
          </Alert>
        )}
      </div>

      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {failure && <SaveFailureAlert failure={failure} ncms={rows.map((row) => row.ncm.trim())} />}
          <GroupFields form={form} />
          <GroupStores form={form} />

          <Paper withBorder p="md">
            <Stack gap="sm">
              <Title order={2} size="h3">
                {t('edit.matrix')}
              </Title>
              <Text size="sm">{t('edit.matrixIntro')}</Text>
              <TaxMatrixTable
                rows={rows}
                onChange={(next) => form.setFieldValue('rows', next)}
                problems={failure?.sorted.byCell ?? {}}
                duplicates={duplicates}
                saved={group?.taxMatrix}
              />
            </Stack>
          </Paper>

          <Group>
            <Button type="submit" loading={save.isPending}>
              {group ? tc('actions.save') : tc('actions.create')}
            </Button>
            {group && (
              <>
                <Button
                  variant="light"
                  disabled={blockers.length > 0}
                  aria-describedby={blockers.length ? 'schedule-blocked' : undefined}
                  onClick={() => {
                    if (checkedValues()) setScheduling(true);
                  }}
                >
                  {t('schedule.scheduleFor')}
                </Button>
                <Button
                  variant="default"
                  loading={preview.mutation.isPending}
                  onClick={() => {
                    const values = checkedValues();
                    if (!values) return;
                    setFailure(null);
                    preview.run(values);
                  }}
                >
                  {t('impact.preview')}
                </Button>
              </>
            )}
            <Button variant="default" component={Link} to="/fiscal-groups">
              {tc('actions.cancel')}
            </Button>
          </Group>
          {blockers.length > 0 && (
            <Text size="sm" id="schedule-blocked" data-testid="schedule-blocked">
              {t('schedule.blocked')} {blockers.includes('stores') && t('schedule.blockedStores')}{' '}
              {blockers.includes('externalId') && t('schedule.blockedExternalId')}
            </Text>
          )}
        </Stack>
      </form>

      {group && <ImpactPanel preview={preview} />}

      {group && (
        <ScheduleModal
          opened={scheduling}
          onClose={() => {
            setScheduling(false);
            setScheduleError(null);
          }}
          pending={schedule.isPending}
          error={scheduleError}
          onSchedule={(instant) => {
            const values = checkedValues();
            if (values) schedule.mutate({ values, instant });
          }}
        />
      )}

      {group && (
        <CsvPanel
          groupId={group.id}
          onImported={(result) => {
            queryClient.setQueryData(queryKeys.fiscalGroups.detail(result.id), result);
            void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.lists });
            setFailure(null);
            form.clearErrors();
            form.setFieldValue('rows', rowsFromMatrix(result.taxMatrix, decimal));
          }}
        />
      )}
    </Stack>
  );
}
