import { Alert, Anchor, Button, Divider, Group, NativeSelect, Stack, Tabs, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime } from '../../common/format';
import { OneTimeValue } from '../../common/one-time-value';
import { ErrorState, LoadingState } from '../../common/states';
import { problemsByField } from '../../forms/api-problems';
import { AuditHistory } from '../audit/audit-history';
import { ClientFields } from './client-fields';
import {
  CLIENT_FIELDS,
  clientFormValues,
  clientPatch,
  clientSchema,
  GRACE_NAMES,
  GRACE_PERIODS,
  type ClientDto,
  type ClientValues,
  type GraceName,
} from './client-form';

/** One client: its settings, its secret's rotation and its history. */
export function ClientPage() {
  const { clientId = '' } = useParams();
  const { t } = useTranslation('clients');
  const query = useQuery({
    queryKey: queryKeys.clients.detail(clientId),
    queryFn: async () => unwrap(await api.GET('/api/admin/clients/{clientId}', { params: { path: { clientId } } })),
  });
  const back = (
    <Anchor component={Link} to="/clients">
      {t('back')}
    </Anchor>
  );
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return (
      <Stack align="flex-start">
        <Title order={1}>{clientId}</Title>
        {isProblem(query.error) && query.error.status === 404 ? (
          <Alert color="yellow">{t('notFound', { clientId })}</Alert>
        ) : (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        )}
        {back}
      </Stack>
    );
  }
  const client = query.data;
  return (
    <Stack gap="md">
      {back}
      <Title order={1}>{client.name}</Title>
      <Text size="sm">
        {t('clientId')}: {client.clientId}
      </Text>
      <Tabs defaultValue="settings" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="settings">{t('tabs.settings')}</Tabs.Tab>
          <Tabs.Tab value="history">{t('tabs.history')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="settings" pt="md">
          <Stack gap="lg" maw={640}>
            <ClientEditor key={client.updatedAt} client={client} />
            <Divider />
            <RotateSecret client={client} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <AuditHistory targetType="client" targetId={client.clientId} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function ClientEditor({ client }: { client: ClientDto }) {
  const { t } = useTranslation('clients');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => clientSchema(t), [t]);
  const form = useForm<ClientValues>({ initialValues: clientFormValues(client), validate: schemaResolver(schema, { sync: true }) });
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: async (values: ClientValues) =>
      unwrap(
        await api.PATCH('/api/admin/clients/{clientId}', {
          params: { path: { clientId: client.clientId } },
          body: clientPatch(client, values),
        }),
      ),
    onMutate: () => {
      setProblem(undefined);
      setSaved(false);
    },
    onSuccess: (updated) => {
      setSaved(true);
      queryClient.setQueryData(queryKeys.clients.detail(client.clientId), updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients.lists });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditEvents.all });
    },
    onError: (error) => {
      const read: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      setProblem(read);
      form.setErrors(problemsByField(read, CLIENT_FIELDS).byField);
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="sm">
        <div aria-live="polite">
          {saved && (
            <Alert color="green" role="status">
              {t('saved', { clientId: client.clientId })}
            </Alert>
          )}
        </div>
        {problem && (
          <Alert color="red" role="alert">
            {t('saveFailed', { message: problem.message })}
          </Alert>
        )}
        <ClientFields form={form} existing />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {tc('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RotateSecret({ client }: { client: ClientDto }) {
  const { t } = useTranslation('clients');
  const queryClient = useQueryClient();
  const [grace, setGrace] = useState<GraceName>('none');
  const rotate = useMutation({
    mutationFn: async (): Promise<Schemas['RotatedSecretDto']> =>
      unwrap(
        await api.POST('/api/admin/clients/{clientId}/secret', {
          params: { path: { clientId: client.clientId } },
          body: { graceSeconds: GRACE_PERIODS[grace] },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.auditEvents.all }),
  });
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('rotate.title')}
      </Title>
      <Text size="sm">{t('rotate.text')}</Text>
      {rotate.data ? (
        <OneTimeValue
          label={t('secret', { clientId: client.clientId })}
          value={rotate.data.secret}
          note={
            rotate.data.previousSecretValidUntil
              ? t('rotate.oldUntil', { at: formatDateTime(rotate.data.previousSecretValidUntil) })
              : t('rotate.oldStopped')
          }
        />
      ) : (
        <Group align="flex-end">
          <NativeSelect
            label={t('rotate.grace')}
            value={grace}
            data={GRACE_NAMES.map((value) => ({ value, label: t(`rotate.graces.${value}`) }))}
            onChange={(event) => setGrace(GRACE_NAMES.find((name) => name === event.currentTarget.value) ?? 'none')}
          />
          <Button color="red.9" loading={rotate.isPending} onClick={() => rotate.mutate()}>
            {t('rotate.submit')}
          </Button>
        </Group>
      )}
      {rotate.isError && (
        <Alert color="red" role="alert">
          {t('rotate.failed', { message: isProblem(rotate.error) ? rotate.error.message : String(rotate.error) })}
        </Alert>
      )}
    </Stack>
  );
}
