import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isProblem } from '../api/client';

/** Loading, error (with a retry, e.g. on a 503) and empty states, the same on every page. */
export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{label ?? t('states.loading')}</Text>
      </Group>
    </Center>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const status = isProblem(error) ? error.status : undefined;
  const message = isProblem(error) ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" title={status === 503 ? t('states.unavailable') : t('states.error', { message })} role="alert">
      <Stack gap="xs" align="flex-start">
        {status === 503 && <Text size="sm">{message}</Text>}
        {onRetry && (
          <Button variant="light" color="red" onClick={onRetry}>
            {t('states.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

export function EmptyState({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Text c="gray.7">{children ?? t('states.empty')}</Text>
    </Center>
  );
}
