import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, toProblem, type Schemas } from '../api/client';
import { problemText } from '../api/problem-text';
import { RecoveryCodes } from './recovery-codes';
import { TotpEnrolmentForm } from './totp-enrolment-form';

type Challenge = Schemas['SignInChallengeDto'];
type Session = Schemas['SessionDto'];

/**
 * The sign-in's second step, after the right password: a code of the authenticator app (or a recovery code), or, when
 * the person's role requires a second factor they lack, its enrolment and the recovery codes before the session.
 */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: Challenge;
  onSignedIn: (session: Session) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2" id="two-factor-title">
        {challenge.next === 'enrol' ? t('twoFactor.enrolTitle') : t('twoFactor.stepTitle')}
      </Title>
      {challenge.next === 'enrol' ? (
        <RequiredEnrolment challenge={challenge.challenge} onSignedIn={onSignedIn} />
      ) : (
        <CodeStep challenge={challenge.challenge} onSignedIn={onSignedIn} />
      )}
      <Anchor component="button" type="button" size="sm" onClick={onRestart}>
        {t('twoFactor.back')}
      </Anchor>
    </Stack>
  );
}

/** An answer's problem in the reader's language (the code's message, not the service's English sentence). */
function answerProblem(status: number, body: unknown): string {
  return toProblem(status, body).message;
}

/** The browser's own sentence ("Failed to fetch") is English: said in the reader's language. */
function networkProblem(caught: unknown): string {
  return problemText({ status: 0, message: caught instanceof Error ? caught.message : String(caught) });
}

function CodeStep({ challenge, onSignedIn }: { challenge: string; onSignedIn: (session: Session) => void }) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const body = useRecovery ? { challenge, recoveryCode: value.trim() } : { challenge, code: value.trim() };
      const result = await api.POST('/api/auth/session/two-factor', { body });
      if (!result.data) {
        setError(t('twoFactor.failed', { message: answerProblem(result.response.status, result.error) }));
        return;
      }
      onSignedIn(result.data);
    } catch (caught) {
      setError(t('twoFactor.failed', { message: networkProblem(caught) }));
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} aria-labelledby="two-factor-title">
      <Stack>
        <Text c="gray.7">{t('twoFactor.stepIntro')}</Text>
        <TextInput
          label={useRecovery ? t('twoFactor.recoveryCode') : t('twoFactor.code')}
          name={useRecovery ? 'recoveryCode' : 'code'}
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          required
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={pending}>
          {t('twoFactor.verify')}
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
          }}
        >
          {useRecovery ? t('twoFactor.useCode') : t('twoFactor.useRecoveryCode')}
        </Anchor>
      </Stack>
    </form>
  );
}

function RequiredEnrolment({ challenge, onSignedIn }: { challenge: string; onSignedIn: (session: Session) => void }) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<Schemas['TotpEnrolmentDto'] | null>(null);
  const [enrolled, setEnrolled] = useState<Schemas['EnrolledSessionDto'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let current = true;
    void api
      .POST('/api/auth/session/two-factor/enrolment', { body: { challenge } })
      .then((result) => {
        if (!current) return;
        if (result.data) setEnrolment(result.data);
        else setError(t('twoFactor.failed', { message: answerProblem(result.response.status, result.error) }));
      })
      .catch((caught: unknown) => current && setError(t('twoFactor.failed', { message: networkProblem(caught) })));
    return () => {
      current = false;
    };
  }, [challenge, t]);

  async function confirm(code: string) {
    setPending(true);
    setError(null);
    try {
      const result = await api.POST('/api/auth/session/two-factor/enrolment/confirm', { body: { challenge, code } });
      if (!result.data) setError(t('twoFactor.failed', { message: answerProblem(result.response.status, result.error) }));
      else setEnrolled(result.data);
    } catch (caught) {
      setError(t('twoFactor.failed', { message: networkProblem(caught) }));
    } finally {
      setPending(false);
    }
  }

  if (enrolled) {
    const { recoveryCodes, ...session } = enrolled;
    return <RecoveryCodes codes={recoveryCodes} onDone={() => onSignedIn(session)} />;
  }
  return (
    <Stack>
      <Text c="gray.7">{t('twoFactor.enrolIntro')}</Text>
      {enrolment ? (
        <TotpEnrolmentForm enrolment={enrolment} pending={pending} error={error} onConfirm={(code) => void confirm(code)} />
      ) : (
        error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )
      )}
    </Stack>
  );
}
