import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api, toProblem } from '../api/client';
import { session } from './session';

/** HTTP Basic credentials: RFC 7617, UTF-8 encoded before base64. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const next = (location.state as { from?: string } | null)?.from ?? '/';
  const [clientId, setClientId] = useState(session.clientId() ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const result = await api.POST('/api/domain-cliente/token', {
        headers: { authorization: basicCredentials(clientId.trim(), clientSecret) },
        body: { grant_type: 'client_credentials' },
      });
      if (!result.data) {
        setError(t('signIn.failed', { message: toProblem(result.response.status, result.error).message }));
        return;
      }
      const scopes = (result.data.scope ?? '').split(' ');
      if (!scopes.includes('admin')) {
        setError(t('signIn.noAdminScope'));
        return;
      }
      session.signIn(result.data.access_token, clientId.trim(), scopes);
      setClientSecret('');
      await navigate(next, { replace: true });
    } catch (caught) {
      setError(t('signIn.failed', { message: caught instanceof Error ? caught.message : String(caught) }));
    } finally {
      setPending(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420} component="main">
        <form onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
          <Stack>
            <Title order={1} size="h2" id="sign-in-title">
              {t('signIn.title')}
            </Title>
            <Text c="gray.7">{t('signIn.intro')}</Text>
            {session.expired() && (
              <Alert color="yellow" role="status">
                {t('signIn.expired')}
              </Alert>
            )}
            <TextInput
              label={t('signIn.clientId')}
              name="clientId"
              autoComplete="username"
              required
              value={clientId}
              onChange={(event) => setClientId(event.currentTarget.value)}
            />
            <PasswordInput
              label={t('signIn.clientSecret')}
              name="clientSecret"
              autoComplete="current-password"
              required
              value={clientSecret}
              onChange={(event) => setClientSecret(event.currentTarget.value)}
            />
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={pending}>
              {t('signIn.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
