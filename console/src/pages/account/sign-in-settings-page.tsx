import { Alert, Button, Checkbox, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, toProblem, unwrap } from '../../api/client';

type RequiredRole = 'fiscal' | 'admin';
const ROLES: RequiredRole[] = ['fiscal', 'admin'];

/** The admin's setting: the roles whose people must sign in with a second factor. */
export function SignInSettingsPage() {
  const { t } = useTranslation();
  const stored = useQuery({
    queryKey: ['settings', 'two-factor'],
    queryFn: async () => unwrap(await api.GET('/api/admin/settings/two-factor')),
  });
  // Null until the admin changes a box: the stored list shows until then.
  const [edited, setEdited] = useState<RequiredRole[] | null>(null);
  const roles = edited ?? stored.data?.requiredRoles ?? [];
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function save() {
    setPending(true);
    setMessage(null);
    try {
      const result = await api.PUT('/api/admin/settings/two-factor', { body: { requiredRoles: roles } });
      setMessage(
        result.data
          ? { ok: true, text: t('twoFactor.saved') }
          : { ok: false, text: t('twoFactor.failed', { message: toProblem(result.response.status, result.error).message }) },
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <Stack maw={560}>
      <Title order={1}>{t('twoFactor.settingsTitle')}</Title>
      <Text>{t('twoFactor.settingsIntro')}</Text>
      <Checkbox.Group label={t('twoFactor.requireFor')} value={roles} onChange={(value) => setEdited(value as RequiredRole[])}>
        <Stack gap="xs" mt="xs">
          {ROLES.map((role) => (
            <Checkbox key={role} value={role} label={t(`twoFactor.roles.${role}`)} />
          ))}
        </Stack>
      </Checkbox.Group>
      {message && (
        <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Alert>
      )}
      <Button onClick={() => void save()} loading={pending} disabled={!stored.data} style={{ alignSelf: 'flex-start' }}>
        {t('twoFactor.save')}
      </Button>
    </Stack>
  );
}
