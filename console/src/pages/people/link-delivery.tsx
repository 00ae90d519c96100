import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../common/format';
import { OneTimeValue } from '../../common/one-time-value';

type PasswordLinkDto = Schemas['PasswordLinkDto'];

/**
 * Where a new one-time link went: to the person's mailbox (the service then never shows it), or here,
 * once, for the admin to pass on, saying why it was not e-mailed when the service has a mail server.
 */
export function LinkDelivery({ issued, person }: { issued: PasswordLinkDto; person: { name: string; email: string } }) {
  const { t } = useTranslation('people');
  const expires = t('linkExpires', { at: formatDateTime(issued.linkExpiresAt) });
  if (issued.emailSent || issued.link === null) {
    return (
      <Text role="status">
        {t('linkEmailed', { email: person.email })} {expires}
      </Text>
    );
  }
  const problem = issued.emailProblem;
  return (
    <Stack gap="xs">
      {problem !== null && problem !== 'SMTP_NOT_CONFIGURED' && (
        <Alert color="yellow" role="alert">
          {t('linkNotEmailed', { reason: t(`emailProblems.${problem}`) })}
        </Alert>
      )}
      <OneTimeValue label={t('link', { name: person.name })} value={issued.link} note={expires} />
    </Stack>
  );
}
