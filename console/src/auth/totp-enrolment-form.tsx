import { Alert, Button, Code, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

// qrcode loads only when a QR code is shown.
const TotpQrCode = lazy(() => import('./totp-qr-code').then((m) => ({ default: m.TotpQrCode })));

/** The new secret as a QR code and as text, and the field for the app's first code. */
export function TotpEnrolmentForm(props: {
  enrolment: { secret: string; otpauthUri: string };
  pending: boolean;
  error: string | null;
  onConfirm: (code: string) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    props.onConfirm(code.trim());
  }
  return (
    <form onSubmit={submit}>
      <Stack>
        <Suspense fallback={null}>
          <TotpQrCode uri={props.enrolment.otpauthUri} alt={t('twoFactor.qrAlt')} />
        </Suspense>
        <Text size="sm">
          {t('twoFactor.secret')}: <Code data-testid="totp-secret">{props.enrolment.secret}</Code>
        </Text>
        <TextInput
          label={t('twoFactor.code')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        {props.error && (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        )}
        <Button type="submit" loading={props.pending}>
          {t('twoFactor.confirm')}
        </Button>
        {props.onCancel && (
          <Button variant="subtle" onClick={props.onCancel}>
            {t('twoFactor.cancel')}
          </Button>
        )}
      </Stack>
    </form>
  );
}
