import { Alert, Button, Code, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The recovery codes, shown once (only their hashes are kept). */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('twoFactor.recoveryTitle')}
      </Title>
      <Alert color="yellow" role="status">
        {t('twoFactor.recoveryIntro')}
      </Alert>
      <SimpleGrid cols={2} component="ul" aria-label={t('twoFactor.recoveryTitle')} style={{ listStyle: 'none', padding: 0 }}>
        {codes.map((code) => (
          <Text component="li" key={code}>
            <Code>{code}</Code>
          </Text>
        ))}
      </SimpleGrid>
      <Button onClick={onDone}>{t('twoFactor.recoverySaved')}</Button>
    </Stack>
  );
}
