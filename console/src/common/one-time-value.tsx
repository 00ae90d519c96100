import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A secret or a one-time link the API shows once: the value, a copy button and the warning. */
export function OneTimeValue({ label, value, note }: { label: string; value: string; note?: string }) {
  const { t } = useTranslation();
  return (
    // No Alert title: the yellow one is below AA contrast (axe); the label is bold body text instead.
    <Alert color="yellow" role="status">
      <Stack gap="xs">
        <Text fw={700}>{label}</Text>
        <Text size="sm">{t('oneTime.once')}</Text>
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label={label}>
          {value}
        </Code>
        <Group gap="sm">
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant={copied ? 'filled' : 'light'} onClick={copy}>
                {copied ? t('oneTime.copied') : t('oneTime.copy')}
              </Button>
            )}
          </CopyButton>
          {note && <Text size="sm">{note}</Text>}
        </Group>
      </Stack>
    </Alert>
  );
}
