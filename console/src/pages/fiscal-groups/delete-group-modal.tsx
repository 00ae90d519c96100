import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, isProblem, unwrap } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import type { FiscalGroup } from './matrix-model';

/** Asks before deleting the group; back to the list once it is gone. */
export function DeleteGroupModal({ group, opened, onClose }: { group: FiscalGroup; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async () => {
      await unwrap(await api.DELETE('/api/admin/fiscal-groups/{id}', { params: { path: { id: group.id } } }));
    },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: queryKeys.fiscalGroups.detail(group.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.lists });
      void navigate('/fiscal-groups');
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('edit.deleteTitle')}
      centered
      closeButtonProps={{ 'aria-label': tc('actions.close') }}
    >
      <Stack>
        <Text>{t('edit.deleteText', { name: group.name })}</Text>
        {remove.isError && (
          <Alert color="red" role="alert">
            {t('edit.deleteFailed', { message: isProblem(remove.error) ? remove.error.message : String(remove.error) })}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {tc('actions.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
