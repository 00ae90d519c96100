import { AppShell, Burger, Button, Group, NativeSelect, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterNavLink, Outlet, useNavigate } from 'react-router';
import { session } from '../auth/session';
import { chooseLanguage, LANGUAGES, type Language } from '../i18n/i18n';
import { LoadingState } from '../common/states';

const SECTIONS = [
  { to: '/', key: 'nav.dashboard', end: true },
  { to: '/orders', key: 'nav.orders', end: false },
  { to: '/fiscal-groups', key: 'nav.fiscalGroups', end: false },
  { to: '/categories', key: 'nav.categories', end: false },
  { to: '/calculator', key: 'nav.calculator', end: false },
] as const;

export function Shell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [opened, { toggle, close }] = useDisclosure();

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
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                session.signOut();
                void navigate('/sign-in', { replace: true });
              }}
            >
              {t('signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('appName')} component="nav">
        {SECTIONS.map((section) => (
          <NavLink key={section.to} component={RouterNavLink} to={section.to} end={section.end} label={t(section.key)} onClick={close} />
        ))}
        <Text size="xs" c="gray.7" mt="auto" p="xs">
          {t('signedInAs', { clientId: session.clientId() ?? '' })}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main component="main">
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
