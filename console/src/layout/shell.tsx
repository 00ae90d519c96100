import { Alert, AppShell, Burger, Button, Group, NativeSelect, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterNavLink, Outlet, useNavigate } from 'react-router';
import { api, toProblem } from '../api/client';
import { sectionsFor } from '../auth/roles';
import { session } from '../auth/session';
import { useSession } from '../auth/use-session';
import { chooseLanguage, LANGUAGES, type Language } from '../i18n/i18n';
import { LoadingState } from '../common/states';

// Its form (and zod) load when it is opened, not with the shell.
const ChangePasswordDialog = lazy(() => import('../auth/change-password-dialog').then((m) => ({ default: m.ChangePasswordDialog })));

export function Shell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const [changingPassword, setChangingPassword] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  if (state.status !== 'signed-in') return null;
  const { user } = state.session;

  async function signOut() {
    setSignOutError(null);
    try {
      const result = await api.DELETE('/api/auth/session');
      // 401: the session had already ended on the server; either way it is over.
      if (!result.response.ok && result.response.status !== 401) {
        setSignOutError(t('signOutFailed', { message: toProblem(result.response.status, result.error).message }));
        return;
      }
    } catch (caught) {
      setSignOutError(t('signOutFailed', { message: caught instanceof Error ? caught.message : String(caught) }));
      return;
    }
    session.signOut();
    queryClient.clear();
    await navigate('/sign-in', { replace: true });
  }

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* At phone width the title gives way (ellipsis); the language and sign-out controls never shrink. */}
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('openMenu')} />
            <Title order={2} size="h4" lineClamp={1}>
              {t('appName')}
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <NativeSelect
              aria-label={t('language')}
              size="xs"
              value={i18n.language}
              data={LANGUAGES.map((language) => ({ value: language, label: language === 'pt-BR' ? 'Português' : 'English' }))}
              onChange={(event) => chooseLanguage(event.currentTarget.value as Language)}
            />
            <Button size="xs" variant="default" onClick={() => void signOut()}>
              {t('signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('appName')} component="nav">
        {sectionsFor(user.role).map((section) => (
          <NavLink key={section.to} component={RouterNavLink} to={section.to} end={section.end} label={t(section.key)} onClick={close} />
        ))}
        <Stack gap={4} mt="auto" p="xs">
          <Text size="xs" c="gray.7">
            {t('signedInAs', { name: user.name, role: t(`roles.${user.role}`) })}
          </Text>
          <Button size="xs" variant="subtle" onClick={() => setChangingPassword(true)} style={{ alignSelf: 'flex-start' }}>
            {t('changePassword.open')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            onClick={() => {
              close();
              void navigate('/account/security');
            }}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('twoFactor.accountOpen')}
          </Button>
        </Stack>
      </AppShell.Navbar>
      <AppShell.Main component="main">
        {signOutError && (
          <Alert
            color="red"
            role="alert"
            mb="md"
            withCloseButton
            closeButtonLabel={t('actions.close')}
            onClose={() => setSignOutError(null)}
          >
            {signOutError}
          </Alert>
        )}
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      {changingPassword && (
        <Suspense fallback={null}>
          <ChangePasswordDialog onClose={() => setChangingPassword(false)} />
        </Suspense>
      )}
    </AppShell>
  );
}
