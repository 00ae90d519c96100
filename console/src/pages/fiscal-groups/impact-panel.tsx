import { Alert, CloseButton, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap } from '../../api/client';
import { LoadingState } from '../../common/states';
import type { GroupFormValues } from './group-form';
import { IMPACT_HOURS, impactFailureKind, impactRequest } from './group-requests';
import { ImpactPreview } from './impact-preview';

/** The impact preview of the edited values: run from the editor's "Preview impact", again when the window changes. */
export function useImpactPreview(groupId: string | undefined, onFieldProblems: (error: unknown) => void) {
  const [hours, setHours] = useState<number>(IMPACT_HOURS[0]);
  const [values, setValues] = useState<GroupFormValues | null>(null);
  const mutation = useMutation({
    mutationFn: async (input: { values: GroupFormValues; hours: number }) =>
      unwrap(await api.POST('/api/admin/fiscal-groups/{id}/impact', impactRequest(groupId!, input.values, input.hours))),
    onError: onFieldProblems,
  });
  return {
    hours,
    shown: values !== null,
    mutation,
    run: (next: GroupFormValues) => {
      setValues(next);
      mutation.mutate({ values: next, hours });
    },
    changeHours: (next: number) => {
      setHours(next);
      if (values) mutation.mutate({ values, hours: next });
    },
    close: () => {
      setValues(null);
      mutation.reset();
    },
  };
}

export function ImpactPanel({ preview }: { preview: ReturnType<typeof useImpactPreview> }) {
  const { t } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  if (!preview.shown) return null;
  const { mutation } = preview;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="impact-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Title order={2} size="h3" id="impact-title">
            {t('impact.title')}
          </Title>
          <CloseButton aria-label={tc('actions.close')} onClick={preview.close} />
        </Group>
        <Text size="sm">{t('impact.intro')}</Text>
        <NativeSelect
          label={t('impact.hours')}
          value={String(preview.hours)}
          data={IMPACT_HOURS.map((hours) => ({ value: String(hours), label: t('impact.hoursOption', { count: hours }) }))}
          onChange={(event) => preview.changeHours(Number(event.currentTarget.value))}
          maw={240}
        />
        <div aria-live="polite">
          {mutation.isPending ? (
            <LoadingState />
          ) : mutation.isError ? (
            <Alert color="red" role="alert">
              {impactFailureKind(mutation.error) === 'busy'
                ? t('impact.busy')
                : impactFailureKind(mutation.error) === 'tooLong'
                  ? t('impact.tooLong')
                  : t('impact.failed', { message: isProblem(mutation.error) ? mutation.error.message : String(mutation.error) })}
            </Alert>
          ) : mutation.data ? (
            <ImpactPreview impact={mutation.data} />
          ) : null}
        </div>
      </Stack>
    </Paper>
  );
}
