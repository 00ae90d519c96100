import { Alert, Anchor, Button, Center, List, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, isProblem, unwrap, type ApiProblem } from '../../api/client';
import { newPasswordSchema, passwordRejections } from '../../auth/password-rules';
import type { SignInState } from '../../auth/sign-in-page';
import { formatDateTime } from '../../common/format';
import { ErrorState, LoadingState } from '../../common/states';

/**
 * `/console/set-password#<token>`: the one-time link of an invitation or a reset. The token is in
 * the fragment, which the browser never sends to a server (nor in a Referer).
 */
export function SetPasswordPage() {
  const { t } = useTranslation('setPassword');
  const token = decodeURIComponent(useLocation().hash.replace(/^#/, ''));
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={480} component="main">
        <Stack>
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          {token ? <LinkForm token={token} /> : <Alert color="yellow">{t('noToken')}</Alert>}
        </Stack>
      </Paper>
    </Center>
  );
}

function LinkForm({ token }: { token: string }) {
  const { t } = useTranslation('setPassword');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const link = useQuery({
    queryKey: ['password-link', token],
    queryFn: async () => unwrap(await api.GET('/api/auth/password-links/{token}', { params: { path: { token } } })),
    retry: false,
  });
  const schema = useMemo(() => newPasswordSchema(tc), [tc]);
  const form = useForm({ initialValues: { password: '', confirm: '' }, validate: schemaResolver(schema, { sync: true }) });
  const setPassword = useMutation({
    mutationFn: async (password: string) =>
      unwrap(await api.POST('/api/auth/password-links/{token}', { params: { path: { token } }, body: { password } })),
    onSuccess: () => void navigate('/sign-in', { replace: true, state: { passwordSet: true } satisfies SignInState }),
  });

  if (link.isPending) return <LoadingState />;
  if (link.isError) {
    const notFound = isProblem(link.error) && link.error.status === 404;
    return (
      <Stack>
        {notFound ? <Alert color="red">{t('linkNotFound')}</Alert> : <ErrorState error={link.error} onRetry={() => void link.refetch()} />}
        <Anchor component={Link} to="/sign-in">
          {t('toSignIn')}
        </Anchor>
      </Stack>
    );
  }
  const problem: ApiProblem | null = setPassword.error
    ? isProblem(setPassword.error)
      ? setPassword.error
      : { status: 0, message: String(setPassword.error) }
    : null;
  const rejections = problem ? passwordRejections(problem, tc) : null;
  // A used or expired link while the page was open.
  const gone = problem?.status === 404;

  return (
    <form onSubmit={form.onSubmit((values) => setPassword.mutate(values.password))} noValidate>
      <Stack gap="sm">
        <Text>{t('for', { name: link.data.name, email: link.data.email, at: formatDateTime(link.data.expiresAt) })}</Text>
        <Text size="sm" id="password-rules">
          {t('rules')}
        </Text>
        {/* For password managers: the account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={link.data.email} readOnly hidden />
        {problem && (
          <Alert color="red" role="alert" title={gone ? undefined : rejections ? t('rejected') : t('failed', { message: problem.message })}>
            {gone ? (
              t('linkNotFound')
            ) : rejections ? (
              <List size="sm">
                {rejections.map((reason) => (
                  <List.Item key={reason}>{reason}</List.Item>
                ))}
              </List>
            ) : null}
          </Alert>
        )}
        <PasswordInput label={t('password')} name="password" autoComplete="new-password" required {...form.getInputProps('password')} />
        <PasswordInput label={t('confirm')} name="confirm" autoComplete="new-password" required {...form.getInputProps('confirm')} />
        <Button type="submit" loading={setPassword.isPending}>
          {t('submit')}
        </Button>
      </Stack>
    </form>
  );
}
