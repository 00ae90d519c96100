import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DeleteGroupModal } from './delete-group-modal';
import type { FiscalGroup } from './matrix-model';

/**
 * The page's head, above its tabs and banners: the way back, the group's name as the title (so every
 * tab names its group), and the group's own actions.
 */
export function GroupHeader({ group }: { group?: FiscalGroup }) {
  const { t } = useTranslation('fiscalGroups');
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/fiscal-groups" size="sm">
        {t('edit.back')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Title order={1}>{group ? t('edit.editTitle', { name: group.name }) : t('edit.newTitle')}</Title>
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
      {group && <DeleteGroupModal group={group} opened={confirmDelete} onClose={() => setConfirmDelete(false)} />}
    </Stack>
  );
}
