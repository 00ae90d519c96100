import { Alert, Anchor, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, isProblem, unwrap, type ApiProblem, type paths, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime } from '../../common/format';
import { OneTimeValue } from '../../common/one-time-value';
import { PageNav } from '../../common/page-nav';
import { StateBadge } from '../../common/state-badge';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { problemsByField } from '../../forms/api-problems';
import { useListPage } from '../../list/use-list-page';
import { ClientFields } from './client-fields';
import { CLIENT_FIELDS, clientSchema, createClientBody, newClientValues, type ClientValues } from './client-form';

// The URL's values go to the API exactly as written (a bad hand-edited one comes back as a 400 naming it).
type CreatedClientDto = Schemas['CreatedClientDto'];
type ClientsQuery = NonNullable<paths['/api/admin/clients']['get']['parameters']['query']>;

export function ClientsPage() {
  const { t } = useTranslation('clients');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { query, page, goTo } = useListPage({
    filters: [] as const,
    queryKey: ({ apiQuery }) => queryKeys.clients.list(apiQuery),
    queryFn: async ({ apiQuery }) =>
      unwrap(await api.GET('/api/admin/clients', { params: { query: apiQuery as unknown as ClientsQuery } })),
  });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedClientDto | null>(null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>{t('title')}</Title>
        <Button
          onClick={() => {
            setCreated(null);
            setCreating(true);
          }}
        >
          {t('create')}
        </Button>
      </Group>
      <Text size="sm">{t('intro')}</Text>

      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <EmptyState>{t('empty')}</EmptyState>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760} type="native">
            <Table striped highlightOnHover aria-label={t('table')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('name')}</Table.Th>
                  <Table.Th>{t('clientId')}</Table.Th>
                  <Table.Th>{t('scopes')}</Table.Th>
                  <Table.Th>{t('stores')}</Table.Th>
                  <Table.Th>{t('status')}</Table.Th>
                  <Table.Th>{t('updatedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.items.map((client) => (
                  <Table.Tr key={client.clientId}>
                    <Table.Td>
                      <Anchor component={Link} to={`/clients/${encodeURIComponent(client.clientId)}`}>
                        {client.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{client.clientId}</Table.Td>
                    <Table.Td>{client.scopes.join(', ')}</Table.Td>
                    <Table.Td>{client.stores.length === 0 ? t('allStores') : client.stores.join(', ')}</Table.Td>
                    <Table.Td>
                      <StateBadge tone={client.active ? 'on' : 'off'}>{client.active ? t('active') : t('inactive')}</StateBadge>
                    </Table.Td>
                    <Table.Td>{formatDateTime(client.updatedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PageNav page={page} totalPages={query.data.totalPages} total={query.data.total} onChange={goTo} />
        </>
      )}

      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title={t('createTitle')}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        {created ? (
          <Stack>
            <Text>{t('created', { clientId: created.clientId })}</Text>
            <OneTimeValue label={t('secret', { clientId: created.clientId })} value={created.secret} />
            <Group justify="flex-end">
              <Button onClick={() => setCreating(false)}>{t('done')}</Button>
            </Group>
          </Stack>
        ) : (
          creating && (
            <CreateClientForm
              onCancel={() => setCreating(false)}
              onCreated={(result) => {
                setCreated(result);
                void queryClient.invalidateQueries({ queryKey: queryKeys.clients.lists });
              }}
            />
          )
        )}
      </Modal>
    </Stack>
  );
}

function CreateClientForm({ onCreated, onCancel }: { onCreated: (created: CreatedClientDto) => void; onCancel: () => void }) {
  const { t } = useTranslation('clients');
  const { t: tc } = useTranslation();
  const schema = useMemo(() => clientSchema(t), [t]);
  const form = useForm<ClientValues>({ initialValues: newClientValues(), validate: schemaResolver(schema, { sync: true }) });
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const create = useMutation({
    mutationFn: async (values: ClientValues) => unwrap(await api.POST('/api/admin/clients', { body: createClientBody(values) })),
    onMutate: () => setProblem(undefined),
    onSuccess: onCreated,
    onError: (error) => {
      const read: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      setProblem(read);
      form.setErrors(problemsByField(read, CLIENT_FIELDS).byField);
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert">
            {t('saveFailed', { message: problem.message })}
          </Alert>
        )}
        <ClientFields form={form} existing={false} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending}>
            {tc('actions.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
