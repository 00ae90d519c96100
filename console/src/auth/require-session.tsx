import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import type { Role } from './roles';
import { LoadingState } from '../common/states';
import { roleIncludes } from './roles';
import { useSession } from './use-session';

/** Signed out (or expired): to the sign-in page, remembering where to come back to. */
export function RequireSession({ children }: { children: ReactNode }) {
  const state = useSession();
  const location = useLocation();
  if (state.status === 'checking') return <LoadingState />;
  if (state.status === 'signed-out') return <Navigate to="/sign-in" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return children;
}

/** A page the signed-in person's role does not reach says so (the API would refuse its calls anyway). */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const state = useSession();
  if (state.status !== 'signed-in') return null;
  if (!roleIncludes(state.session.user.role, role)) return <NotAvailable needed={role} current={state.session.user.role} />;
  return children;
}

function NotAvailable({ needed, current }: { needed: Role; current: Role }) {
  const { t } = useTranslation();
  return (
    <Stack align="flex-start">
      <Title order={1}>{t('notAvailable.title')}</Title>
      <Text>{t('notAvailable.text', { role: t(`roles.${needed}`), current: t(`roles.${current}`) })}</Text>
      <Anchor component={Link} to="/">
        {t('notAvailable.home')}
      </Anchor>
    </Stack>
  );
}
