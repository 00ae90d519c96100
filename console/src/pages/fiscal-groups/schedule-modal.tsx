import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localInputNow } from './group-requests';

/**
 * Asks when the edited group takes effect: the browser's own `datetime-local` input (no date-picker
 * library), read in the browser's time zone and sent with its offset.
 */
export function ScheduleModal({
  opened,
  onClose,
  onSchedule,
  pending,
  error,
}: {
  opened: boolean;
  onClose: () => void;
  onSchedule: (localInstant: string) => void;
  pending: boolean;
  error: string | null;
}) {
  const { t } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  const [instant, setInstant] = useState('');
  const [missing, setMissing] = useState(false);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <Modal opened={opened} onClose={onClose} title={t('schedule.title')} centered closeButtonProps={{ 'aria-label': tc('actions.close') }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!instant) {
            setMissing(true);
            return;
          }
          onSchedule(instant);
        }}
      >
        <Stack>
          <Text size="sm">{t('schedule.intro')}</Text>
          <TextInput
            type="datetime-local"
            label={t('schedule.instant')}
            description={t('schedule.instantHint', { zone })}
            min={localInputNow()}
            value={instant}
            error={missing ? t('schedule.chooseInstant') : undefined}
            onChange={(event) => {
              setInstant(event.currentTarget.value);
              setMissing(false);
            }}
            data-autofocus
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('schedule.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
