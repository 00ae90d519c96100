import { Checkbox, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { CLIENT_SCOPES, type ClientValues } from './client-form';

/** Name, scopes, stores (and the active flag of an existing client), shared by creation and editing. */
export function ClientFields({ form, existing }: { form: UseFormReturnType<ClientValues>; existing: boolean }) {
  const { t } = useTranslation('clients');
  return (
    <Stack gap="sm">
      <TextInput label={t('name')} autoComplete="off" required {...form.getInputProps('name')} />
      <Checkbox.Group label={t('scopes')} required {...form.getInputProps('scopes')}>
        <Stack gap={6} mt={6}>
          {CLIENT_SCOPES.map((scope) => (
            <Checkbox key={scope} value={scope} label={t(`scopeHelp.${scope}`)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <TagsInput label={t('stores')} description={t('storesHelp')} clearable {...form.getInputProps('stores')} />
      {existing && <Switch label={t('activeLabel')} {...form.getInputProps('active', { type: 'checkbox' })} />}
    </Stack>
  );
}
