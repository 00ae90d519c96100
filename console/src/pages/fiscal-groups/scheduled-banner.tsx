import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, isProblem, unwrap } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { formatDateTime } from '../../common/format';
import { cancelFailureKind, cancelRequest } from './group-requests';
import type { FiscalGroup } from './matrix-model';

type Scheduled = FiscalGroup['scheduled'][number];
type Outcome = { ok: true; revision: number } | { ok: false; revision: number; message: string };

/** A banner for each change scheduled on the group (when, by whom), with a confirmed Cancel. */
export function ScheduledBanner({ group }: { group: FiscalGroup }) {
  const { t } = useTranslation('fiscalGroups');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<Scheduled | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.detail(group.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.fiscalGroups.revisions(group.id) }),
    ]);

  const cancel = useMutation({
    mutationFn: async (scheduled: Scheduled) => {
      await unwrap(await api.DELETE('/api/admin/fiscal-groups/{id}/revisions/{revision}', cancelRequest(group.id, scheduled.revision)));
    },
    onMutate: () => setOutcome(null),
    onSuccess: (_data, scheduled) => setOutcome({ ok: true, revision: scheduled.revision }),
    onError: (error, scheduled) => {
      const kind = cancelFailureKind(error);
      const message =
        kind === 'other'
          ? t('schedule.cancelFailed', { message: isProblem(error) ? error.message : String(error) })
          : kind === 'inUse'
            ? t('schedule.inUse', { revision: scheduled.revision })
            : t('schedule.tookEffect', { revision: scheduled.revision });
      setOutcome({ ok: false, revision: scheduled.revision, message });
    },
    onSettled: async (_data, error) => {
      setConfirming(null);
      // After a 409 or 404 the group has moved on: show it as it is now.
      if (!error || cancelFailureKind(error) !== 'other') await refresh();
    },
  });

  if (group.scheduled.length === 0 && !outcome) return null;
  return (
    <Stack gap="xs" aria-live="polite">
      {outcome &&
        (outcome.ok ? (
          <Alert color="green" role="status" withCloseButton closeButtonLabel={tc('actions.close')} onClose={() => setOutcome(null)}>
            {t('schedule.cancelled', { revision: outcome.revision })}
          </Alert>
        ) : (
          <Alert color="red" role="alert" withCloseButton closeButtonLabel={tc('actions.close')} onClose={() => setOutcome(null)}>
            {outcome.message}
          </Alert>
        ))}
      {group.scheduled.map((scheduled) => (
        <Alert key={scheduled.revision} color="yellow" role="note" data-testid={`scheduled-${scheduled.revision}`}>
          <Stack gap={6}>
            <Text fw={600} size="sm">
              {t('schedule.banner', { revision: scheduled.revision, at: formatDateTime(scheduled.effectiveFrom) })}
            </Text>
            <Text size="sm">{scheduled.actor ? t('schedule.bannerBy', { name: scheduled.actor.name }) : t('schedule.bannerByServer')}</Text>
            <Group gap="sm">
              <Anchor
                component={Link}
                to={`/fiscal-groups/${group.id}?tab=revisions&revision=${scheduled.revision}`}
                size="sm"
                c="dark"
                underline="always"
              >
                {t('schedule.showRevision')}
              </Anchor>
              <Button size="xs" variant="default" onClick={() => setConfirming(scheduled)}>
                {t('schedule.cancel')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ))}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t('schedule.cancelTitle')}
        centered
        closeButtonProps={{ 'aria-label': tc('actions.close') }}
      >
        {confirming && (
          <Stack>
            <Text>{t('schedule.cancelText', { revision: confirming.revision, at: formatDateTime(confirming.effectiveFrom) })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(null)}>
                {t('schedule.keep')}
              </Button>
              <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate(confirming)}>
                {t('schedule.cancelConfirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
