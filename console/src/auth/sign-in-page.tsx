import { Alert, Button, Center, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, toProblem, type Schemas } from '../api/client';
import { problemText } from '../api/problem-text';
import { queryKeys } from '../api/query-keys';
import { session } from './session';

/** Why sign-in is asked, when the page was sent here with a reason. */
export interface SignInState {
  from?: string;
  /** After a password was set through a one-time link. */
  passwordSet?: boolean;
}

// The second step loads only for people who have one: the sign-in page stays in the small initial bundle.
const TwoFactorStep = lazy(() => import('./two-factor-step').then((m) => ({ default: m.TwoFactorStep })));

// A plain form, not @mantine/form: this page is in the initial bundle, which stays small.
export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const state = (location.state as SignInState | null) ?? {};
  const next = state.from ?? '/';
  const [email, setEmail] = useState(session.lastEmail() ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [challenge, setChallenge] = useState<Schemas['SignInChallengeDto'] | null>(null);
  const options = useQuery({
    queryKey: queryKeys.signInOptions,
    queryFn: async () => (await api.GET('/api/auth/sign-in-options')).data ?? null,
    retry: false,
  });
  const singleSignOn = options.data?.singleSignOn ?? null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const result = await api.POST('/api/auth/session', { body: { email: email.trim(), password } });
      if (!result.data) {
        const problem = toProblem(result.response.status, result.error);
        setError(
          problem.status === 429
            ? t('signIn.rateLimited', { seconds: result.response.headers.get('retry-after') ?? '60' })
            : problem.status === 401
              ? t('signIn.wrongCredentials')
              : t('signIn.failed', { message: problem.message }),
        );
        return;
      }
      setPassword('');
      // 202: the right password, and a second step before any session.
      if ('challenge' in result.data) {
        setChallenge(result.data);
        return;
      }
      await signedIn(result.data);
    } catch (caught) {
      // The browser's own sentence ("Failed to fetch") is English: said in the reader's language.
      setError(
        t('signIn.failed', { message: problemText({ status: 0, message: caught instanceof Error ? caught.message : String(caught) }) }),
      );
    } finally {
      setPending(false);
    }
  }

  async function signedIn(dto: Schemas['SessionDto']) {
    // Nothing read under an earlier session (another person's, another role) is shown to this one.
    queryClient.clear();
    session.signIn(dto);
    await navigate(next, { replace: true });
  }

  if (challenge) {
    return (
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" p="xl" w="100%" maw={420} component="main">
          <Suspense fallback={null}>
            <TwoFactorStep challenge={challenge} onSignedIn={(dto) => void signedIn(dto)} onRestart={() => setChallenge(null)} />
          </Suspense>
        </Paper>
      </Center>
    );
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420} component="main">
        <Stack>
          <form onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
            <Stack>
              <Title order={1} size="h2" id="sign-in-title">
                {t('signIn.title')}
              </Title>
              <Text c="gray.7">{t('signIn.intro')}</Text>
              {session.endReason() === 'expired' && (
                <Alert color="yellow" role="status">
                  {t('signIn.expired')}
                </Alert>
              )}
              {session.endReason() === 'access-removed' && (
                <Alert color="red" role="alert">
                  {t('signIn.accessRemoved')}
                </Alert>
              )}
              {state.passwordSet && (
                <Alert color="green" role="status">
                  {t('signIn.passwordSet')}
                </Alert>
              )}
              {searchParams.get('error') === 'sso' && (
                <Alert color="red" role="alert">
                  {t('signIn.singleSignOnRefused')}
                </Alert>
              )}
              <TextInput
                label={t('signIn.email')}
                name="email"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
              />
              <PasswordInput
                label={t('signIn.password')}
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
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
          {singleSignOn && (
            <>
              {/* Mantine's dimmed label is 3.3:1 on white: this gray reads at AA. */}
              <Divider
                label={
                  <Text size="xs" c="gray.7">
                    {t('signIn.or')}
                  </Text>
                }
                labelPosition="center"
              />
              {/* A full page load: the service answers with a redirect to the provider. */}
              <Button component="a" href={singleSignOn.url} variant="default">
                {t('signIn.singleSignOn', { name: singleSignOn.name })}
              </Button>
            </>
          )}
          <Text size="sm" c="gray.7">
            {t('signIn.forgotten')}
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
