import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';
import { PersonalFieldsTable } from './personal-fields-table';

/**
 * For an admin on an order's page: the API shows people the customer's e-mail, phone and CPF masked; this reveals
 * them in full through the audited reveal route.
 */
export function RevealPersonalData({ orderDbId }: { orderDbId: string }) {
  const { t } = useTranslation('personalData');
  const reveal = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/admin/personal-data/orders/{id}/reveal', { params: { path: { id: orderDbId } } })),
  });
  return (
    <Stack gap="sm" data-testid="personal-data-reveal">
      <Text>{t('reveal.masked')}</Text>
      {!reveal.data && (
        <Button variant="default" onClick={() => reveal.mutate()} loading={reveal.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('reveal.button')}
        </Button>
      )}
      {reveal.isError && (
        <Alert color="red" role="alert">
          {t('failed', { message: reveal.error.message })}
        </Alert>
      )}
      {reveal.data &&
        (reveal.data.fields.length === 0 ? (
          <Text c="gray.7">{t('reveal.none')}</Text>
        ) : (
          <PersonalFieldsTable fields={reveal.data.fields} label={t('reveal.title')} />
        ))}
    </Stack>
  );
}
