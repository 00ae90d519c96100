import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, toProblem, unwrap, type Schemas } from '../../api/client';
import { RecoveryCodes } from '../../auth/recovery-codes';
import { TotpEnrolmentForm } from '../../auth/totp-enrolment-form';
import { formatDateTime } from '../../common/format';

const STATUS_KEY = ['account', 'two-factor'] as const;

/** A person's own second factor: its state, enrolment (QR code, then recovery codes once), new codes and turning it off. */
export function AccountSecurityPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: async () => unwrap(await api.GET('/api/auth/two-factor')) });
  const [enrolment, setEnrolment] = useState<Schemas['TotpEnrolmentDto'] | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  /** The answer's body, or null (the failure shown) when it is not a success; a 204 is `{ data: undefined }`. */
  async function run<T>(call: () => Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data: T | undefined } | null> {
    setPending(true);
    setError(null);
    setNotice(null);
    try {
      const result = await call();
      if (!result.response.ok) {
        setError(t('twoFactor.failed', { message: toProblem(result.response.status, result.error).message }));
        return null;
      }
      return { data: result.data };
    } finally {
      setPending(false);
    }
  }

  async function start() {
    const started = await run(() => api.POST('/api/auth/two-factor/enrolment'));
    if (started?.data) setEnrolment(started.data);
  }

  async function confirm(code: string) {
    const confirmed = await run(() => api.POST('/api/auth/two-factor/enrolment/confirm', { body: { code } }));
    if (!confirmed?.data) return;
    setEnrolment(null);
    setCodes(confirmed.data.recoveryCodes);
    await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
  }

  async function withProof(action: 'regenerate' | 'disable', proof: { password?: string; code?: string }) {
    if (action === 'regenerate') {
      const renewed = await run(() => api.POST('/api/auth/two-factor/recovery-codes', { body: proof }));
      if (renewed?.data) setCodes(renewed.data.recoveryCodes);
    } else {
      const result = await run(() => api.POST('/api/auth/two-factor/disable', { body: proof }));
      if (result) setNotice(t('twoFactor.disabled'));
    }
    await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
  }

  const state = status.data;
  return (
    <Stack maw={560}>
      <Title order={1}>{t('twoFactor.accountTitle')}</Title>
      {codes ? (
        <Paper withBorder p="md">
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        </Paper>
      ) : (
        <>
          {state && (
            <Text>
              {state.enabled
                ? t('twoFactor.statusOn', { date: state.enabledAt ? formatDateTime(state.enabledAt) : '—', left: state.recoveryCodesLeft })
                : t('twoFactor.statusOff')}
            </Text>
          )}
          {state?.requiredForRole && (
            <Alert color="blue" role="status">
              {t('twoFactor.requiredForRole')}
            </Alert>
          )}
          {notice && (
            <Alert color="green" role="status">
              {notice}
            </Alert>
          )}
          {state && !state.enabled && !enrolment && (
            <Button onClick={() => void start()} loading={pending} style={{ alignSelf: 'flex-start' }}>
              {t('twoFactor.start')}
            </Button>
          )}
          {enrolment && (
            <Paper withBorder p="md">
              <TotpEnrolmentForm
                enrolment={enrolment}
                pending={pending}
                error={error}
                onConfirm={(code) => void confirm(code)}
                onCancel={() => setEnrolment(null)}
              />
            </Paper>
          )}
          {state?.enabled && (
            <ProofForm pending={pending} canDisable={!state.requiredForRole} onSubmit={(action, proof) => void withProof(action, proof)} />
          )}
          {error && !enrolment && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}

function ProofForm(props: {
  pending: boolean;
  canDisable: boolean;
  onSubmit: (action: 'regenerate' | 'disable', proof: { password?: string; code?: string }) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const proof = () => (code.trim() ? { code: code.trim() } : { password });
  function submit(event: FormEvent, action: 'regenerate' | 'disable') {
    event.preventDefault();
    props.onSubmit(action, proof());
    setPassword('');
    setCode('');
  }
  return (
    <Paper withBorder p="md">
      <form onSubmit={(event) => submit(event, 'regenerate')}>
        <Stack>
          <Text size="sm">{t('twoFactor.proofIntro')}</Text>
          <PasswordInput
            label={t('twoFactor.password')}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <TextInput
            label={t('twoFactor.code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" loading={props.pending}>
              {t('twoFactor.regenerate')}
            </Button>
            {props.canDisable && (
              <Button color="red" variant="outline" loading={props.pending} onClick={(event) => submit(event, 'disable')}>
                {t('twoFactor.disable')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
