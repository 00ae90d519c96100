import { Alert, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap, type paths, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime } from '../../common/format';
import { PageNav } from '../../common/page-nav';
import { StateBadge } from '../../common/state-badge';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { useListPage } from '../../list/use-list-page';
import { InviteForm } from './invite-form';
import { LinkDelivery } from './link-delivery';
import { PersonEditor } from './person-editor';

// The URL's values go to the API exactly as written (a bad hand-edited one comes back as a 400 naming it).
type UsersQuery = NonNullable<paths['/api/admin/users']['get']['parameters']['query']>;

export function PeoplePage() {
  const { t } = useTranslation('people');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { query, page, goTo } = useListPage({
    filters: [] as const,
    queryKey: ({ apiQuery }) => queryKeys.users.list(apiQuery),
    queryFn: async ({ apiQuery }) => unwrap(await api.GET('/api/admin/users', { params: { query: apiQuery as unknown as UsersQuery } })),
  });
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<Schemas['CreatedUserDto'] | null>(null);
  const [editing, setEditing] = useState<Schemas['UserDto'] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.lists });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1}>{t('title')}</Title>
        <Button
          onClick={() => {
            setInvited(null);
            setInviting(true);
          }}
        >
          {t('invite')}
        </Button>
      </Group>
      <Text size="sm">{t('intro')}</Text>

      <div aria-live="polite">
        {notice && (
          <Alert color="green" role="status" withCloseButton closeButtonLabel={tc('actions.close')} onClose={() => setNotice(null)}>
            {notice}
          </Alert>
        )}
      </div>

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
                  <Table.Th>{t('email')}</Table.Th>
                  <Table.Th>{t('role')}</Table.Th>
                  <Table.Th>{t('status')}</Table.Th>
                  <Table.Th>{t('lastSignInAt')}</Table.Th>
                  <Table.Th>{t('actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.items.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Td>{user.name}</Table.Td>
                    <Table.Td>{user.email}</Table.Td>
                    <Table.Td>{tc(`roles.${user.role}`)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <StateBadge tone={user.active ? 'on' : 'off'}>{user.active ? t('active') : t('inactive')}</StateBadge>
                        {!user.passwordSet && <StateBadge tone="warn">{t('noPassword')}</StateBadge>}
                        {user.twoFactorEnabled && <StateBadge tone="on">{t('twoFactorOn')}</StateBadge>}
                      </Group>
                    </Table.Td>
                    <Table.Td>{formatDateTime(user.lastSignInAt)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="light" aria-label={t('editOf', { name: user.name })} onClick={() => setEditing(user)}>
                        {tc('actions.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PageNav page={page} totalPages={query.data.totalPages} total={query.data.total} onChange={goTo} />
        </>
      )}

      <Modal
        opened={inviting}
        onClose={() => setInviting(false)}
        title={t('inviteTitle')}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        {invited ? (
          <Stack>
            <Text>{t('invited', { name: invited.user.name })}</Text>
            <LinkDelivery issued={invited} person={invited.user} />
            <Group justify="flex-end">
              <Button onClick={() => setInviting(false)}>{tc('actions.close')}</Button>
            </Group>
          </Stack>
        ) : (
          inviting && (
            <InviteForm
              onCancel={() => setInviting(false)}
              onInvited={(result) => {
                setInvited(result);
                refresh();
              }}
            />
          )
        )}
      </Modal>

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? t('editTitle', { name: editing.name }) : ''}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        {editing && (
          <PersonEditor
            key={editing.id}
            user={editing}
            onCancel={() => setEditing(null)}
            onTwoFactorReset={refresh}
            onSaved={(saved) => {
              setEditing(null);
              setNotice(t('saved', { name: saved.name }));
              refresh();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
