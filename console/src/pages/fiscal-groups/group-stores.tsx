import { Button, CloseButton, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { emptyStore, type GroupFormValues } from './group-form';

/** The stores the group taxes: one row each (id and name), added and removed in place. */
export function GroupStores({ form }: { form: UseFormReturnType<GroupFormValues> }) {
  const { t } = useTranslation('fiscalGroups');
  const { stores } = form.getValues();
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('edit.stores')}
        </Title>
        {stores.length === 0 && <Text c="gray.7">{t('edit.storesEmpty')}</Text>}
        {stores.map((store, index) => (
          <Group key={store.uid} align="flex-start" wrap="nowrap" gap="xs">
            <SimpleGrid cols={{ base: 1, sm: 2 }} style={{ flex: 1 }} spacing="xs">
              <TextInput
                aria-label={t('edit.storeIdRow', { n: index + 1 })}
                placeholder={t('edit.storeId')}
                {...form.getInputProps(`stores.${index}.store_id`)}
              />
              <TextInput
                aria-label={t('edit.storeNameRow', { n: index + 1 })}
                placeholder={t('edit.storeName')}
                {...form.getInputProps(`stores.${index}.store_name`)}
              />
            </SimpleGrid>
            <CloseButton
              mt={6}
              aria-label={t('edit.removeStore', { id: store.store_id || index + 1 })}
              onClick={() => form.removeListItem('stores', index)}
            />
          </Group>
        ))}
        <Group>
          <Button variant="light" onClick={() => form.insertListItem('stores', emptyStore())}>
            {t('edit.addStore')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
