import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, isProblem, unwrap, type Schemas } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { EmptyState, ErrorState, LoadingState } from '../../common/states';
import { editableConfiguration, parseEdit, removedByEdit } from './configuration-edit';
import { validationProblemText } from '../../api/validation-problem';

type Configuration = Schemas['ChannelsStoresResponseDto'];

export function ChannelsPage() {
  const { t } = useTranslation('channels');
  const stored = useQuery({ queryKey: queryKeys.channels, queryFn: async () => unwrap(await api.GET('/api/v3/channels-stores')) });
  // Kept here: a save remounts the editor (its key is the stored configuration), and the notice must outlive that.
  const [saved, setSaved] = useState<Configuration | null>(null);
  if (stored.isPending) return <LoadingState />;
  if (stored.isError) return <ErrorState error={stored.error} onRetry={() => void stored.refetch()} />;
  return (
    <Stack gap="md">
      <Title order={1}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>
      <ConfigurationTables configuration={stored.data} />
      <div aria-live="polite">
        {saved && (
          <Alert color="green" role="status">
            {t('saved', { stores: saved.stores.length, channels: saved.channels.length })}
          </Alert>
        )}
      </div>
      <ConfigurationEditor key={JSON.stringify(stored.data)} stored={stored.data} onSaved={setSaved} onEdit={() => setSaved(null)} />
    </Stack>
  );
}

function ConfigurationTables({ configuration }: { configuration: Configuration }) {
  const { t } = useTranslation('channels');
  const yesNo = (value: boolean | null) => (value === null ? t('unset') : value ? t('yes') : t('no'));
  return (
    <>
      <Title order={2} size="h4">
        {t('channels')}
      </Title>
      {configuration.channels.length === 0 ? (
        <EmptyState>{t('noChannels')}</EmptyState>
      ) : (
        <Table aria-label={t('channels')} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('channelId')}</Table.Th>
              <Table.Th>{t('channelName')}</Table.Th>
              <Table.Th>{t('active')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {configuration.channels.map((channel) => (
              <Table.Tr key={channel.channelId}>
                <Table.Td>{channel.channelId}</Table.Td>
                <Table.Td>{channel.channel ?? t('unset')}</Table.Td>
                <Table.Td>{yesNo(channel.active)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Title order={2} size="h4">
        {t('stores')}
      </Title>
      {configuration.stores.length === 0 ? (
        <EmptyState>{t('noStores')}</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={640} type="native">
          <Table aria-label={t('stores')} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('storeId')}</Table.Th>
                <Table.Th>{t('storeName')}</Table.Th>
                <Table.Th>{t('storeCode')}</Table.Th>
                <Table.Th>{t('active')}</Table.Th>
                <Table.Th>{t('storeChannels')}</Table.Th>
                <Table.Th>{t('fiscalGroup')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {configuration.stores.map((store) => (
                <Table.Tr key={store.storeId}>
                  <Table.Td>{store.storeId}</Table.Td>
                  <Table.Td>{store.name ?? t('unset')}</Table.Td>
                  <Table.Td>{store.storeCode ?? t('unset')}</Table.Td>
                  <Table.Td>{yesNo(store.active)}</Table.Td>
                  <Table.Td>{store.storeChannels.join(', ') || t('unset')}</Table.Td>
                  <Table.Td>
                    {store.fiscalGroupId ? (
                      <Anchor
                        component={Link}
                        to={`/fiscal-groups/${store.fiscalGroupId}`}
                        aria-label={t('openFiscalGroup', { storeId: store.storeId })}
                      >
                        {store.fiscalGroupId}
                      </Anchor>
                    ) : (
                      t('noFiscalGroup')
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

function ConfigurationEditor({
  stored,
  onSaved,
  onEdit,
}: {
  stored: Configuration;
  onSaved: (configuration: Configuration) => void;
  onEdit: () => void;
}) {
  const { t } = useTranslation('channels');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const original = useMemo(() => JSON.stringify(editableConfiguration(stored), null, 2), [stored]);
  const [text, setText] = useState(original);
  const [confirming, setConfirming] = useState(false);
  const parsed = parseEdit(text);
  const dirty = text !== original;
  const removed = parsed.ok ? removedByEdit(stored, parsed.body) : { stores: [], channels: [] };

  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) =>
      unwrap(await api.PUT('/api/admin/channels-stores', { body: body as Schemas['ChannelsStoresRequestDto'] })),
    onSuccess: (configuration) => {
      setConfirming(false);
      onSaved(configuration);
      queryClient.setQueryData(queryKeys.channels, configuration);
    },
    onError: () => setConfirming(false),
  });

  return (
    <Stack gap="sm">
      <div aria-live="polite">
        {save.isError && (
          <Alert
            color="red"
            role="alert"
            title={t('saveFailed', { message: isProblem(save.error) ? save.error.message : String(save.error) })}
          >
            {isProblem(save.error) &&
              save.error.details?.map((detail, index) => (
                <Text size="sm" key={index}>
                  {[detail.field, validationProblemText(detail.problem)].filter(Boolean).join(': ')}
                </Text>
              ))}
          </Alert>
        )}
      </div>
      <Textarea
        label={t('editor')}
        description={t('editorHint')}
        value={text}
        onChange={(event) => {
          onEdit();
          setText(event.currentTarget.value);
        }}
        error={parsed.ok ? undefined : t('notJson', { error: parsed.error })}
        autosize
        minRows={8}
        maxRows={30}
        spellCheck={false}
        styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
      />
      <Group justify="flex-end" gap="sm">
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
            setText(original);
          }}
        >
          {t('discard')}
        </Button>
        <Button disabled={!dirty || !parsed.ok} onClick={() => setConfirming(true)}>
          {t('save')}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('confirmTitle')}
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        <Stack>
          <Text>{t('confirmText')}</Text>
          {removed.stores.length > 0 && <Text c="red.8">{t('removesStores', { ids: removed.stores.join(', ') })}</Text>}
          {removed.channels.length > 0 && <Text c="red.8">{t('removesChannels', { ids: removed.channels.join(', ') })}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" loading={save.isPending} onClick={() => parsed.ok && save.mutate(parsed.body)}>
              {t('confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
