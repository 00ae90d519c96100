import { Alert, Anchor, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../../api/client';
import { formatDateTime } from '../../common/format';
import { PersonalFieldsTable } from './personal-fields-table';

type Kind = 'email' | 'phone' | 'document';
type Subject = { kind: Kind; value: string };

function download(lookup: Schemas['PersonalDataLookupDto'], subject: Subject) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(lookup, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `personal-data-${subject.kind}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An admin answers a data subject: search by e-mail, phone or CPF/CNPJ, download the copy, erase with a reason. */
export function PersonalDataPage() {
  const { t } = useTranslation('personalData');
  const { t: tc } = useTranslation();
  const [kind, setKind] = useState<Kind>('email');
  const [value, setValue] = useState('');
  const [subject, setSubject] = useState<Subject | null>(null);
  const [reason, setReason] = useState('');
  const [confirming, { open, close }] = useDisclosure(false);

  const lookup = useMutation({
    mutationFn: async (asked: Subject) => {
      setSubject(asked);
      return unwrap(await api.GET('/api/admin/personal-data', { params: { query: { [asked.kind]: asked.value } } }));
    },
  });
  const erase = useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/api/admin/personal-data/erasure', { body: { [subject!.kind]: subject!.value, reason: reason.trim() } })),
    onSettled: () => {
      close();
      if (subject) lookup.mutate(subject);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    erase.reset();
    if (value.trim() !== '') lookup.mutate({ kind, value: value.trim() });
  };
  const found = lookup.data;

  return (
    <Stack gap="lg">
      <Title order={1}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      <form onSubmit={submit} aria-label={t('title')}>
        <Stack gap="sm" maw={520}>
          <Text fw={600} id="personal-data-kind">
            {t('searchBy')}
          </Text>
          <SegmentedControl
            aria-labelledby="personal-data-kind"
            value={kind}
            onChange={(next) => setKind(next as Kind)}
            data={(['email', 'phone', 'document'] as const).map((option) => ({ value: option, label: t(`kinds.${option}`) }))}
          />
          <TextInput label={t('value')} value={value} onChange={(event) => setValue(event.currentTarget.value)} required />
          <Button type="submit" loading={lookup.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('search')}
          </Button>
        </Stack>
      </form>

      {lookup.isError && (
        <Alert color="red" role="alert">
          {t('failed', { message: lookup.error.message })}
        </Alert>
      )}
      {erase.isError && (
        <Alert color="red" role="alert">
          {t('failed', { message: erase.error.message })}
        </Alert>
      )}
      {erase.data && (
        <Alert color="green" role="status" data-testid="erasure-outcome">
          {t('erased', erase.data)}
        </Alert>
      )}

      {found && subject && (
        <Stack gap="md" data-testid="personal-data-result">
          <Text>{found.orders.length === 0 ? t('noOrders') : t('found', { count: found.orders.length })}</Text>
          {found.truncated && <Alert color="yellow">{t('truncated')}</Alert>}
          {found.orders.length > 0 && (
            <Group gap="sm">
              <Button variant="default" onClick={() => download(found, subject)}>
                {t('download')}
              </Button>
              <Button color="red" onClick={open}>
                {t('erase')}
              </Button>
            </Group>
          )}
          {found.orders.map((order) => (
            <Stack key={order.id} gap="xs">
              <Group gap="sm">
                <Anchor component={Link} to={`/orders/${encodeURIComponent(order.id)}`} fw={600}>
                  {t('order', { orderId: order.orderId })}
                </Anchor>
                <Text c="gray.7" size="sm">
                  {order.status} · {formatDateTime(order.createdAt)}
                </Text>
              </Group>
              <PersonalFieldsTable fields={order.fields} label={t('order', { orderId: order.orderId })} />
            </Stack>
          ))}
        </Stack>
      )}

      <Modal opened={confirming} onClose={close} title={t('eraseTitle')} centered>
        <Stack gap="md">
          <Text>{t('eraseText', { count: found?.orders.length ?? 0 })}</Text>
          <Textarea
            label={t('reason')}
            description={t('reasonHint')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            required
            maxLength={500}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={erase.isPending}>
              {tc('actions.cancel')}
            </Button>
            <Button color="red" onClick={() => erase.mutate()} loading={erase.isPending} disabled={reason.trim() === ''}>
              {t('eraseConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
