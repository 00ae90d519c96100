import { Alert, Button, Divider, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';

type UserDto = Schemas['UserDto'];
import { problemsByField } from '../../forms/api-problems';
import { RoleSelect } from './invite-form';
import { LinkDelivery } from './link-delivery';
import { PERSON_FIELDS, personFormValues, personPatch, personSchema, type PersonValues } from './person-form';

/** Name, role and active flag (`PATCH /api/admin/users/{id}`), the reset of a second factor, and a new one-time link. */
export function PersonEditor({
  user,
  onSaved,
  onCancel,
  onTwoFactorReset,
}: {
  user: UserDto;
  onSaved: (saved: UserDto) => void;
  onCancel: () => void;
  onTwoFactorReset?: () => void;
}) {
  const { t } = useTranslation('people');
  const { t: tc } = useTranslation();
  const schema = useMemo(() => personSchema(t), [t]);
  const form = useForm<PersonValues>({ initialValues: personFormValues(user), validate: schemaResolver(schema, { sync: true }) });
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const save = useMutation({
    mutationFn: async (values: PersonValues) =>
      unwrap(await api.PATCH('/api/admin/users/{id}', { params: { path: { id: user.id } }, body: personPatch(user, values) })),
    onMutate: () => setProblem(undefined),
    onSuccess: onSaved,
    onError: (error) => {
      const read: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      setProblem(read);
      form.setErrors(problemsByField(read, PERSON_FIELDS).byField);
    },
  });
  const [twoFactorEnabled, setTwoFactorEnabled] = useState(user.twoFactorEnabled);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const resetTwoFactor = useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/admin/users/{id}/two-factor', { params: { path: { id: user.id } } })),
    onSuccess: () => {
      setConfirmingReset(false);
      setTwoFactorEnabled(false);
      onTwoFactorReset?.();
    },
  });
  const newLink = useMutation({
    mutationFn: async (): Promise<Schemas['PasswordLinkDto']> =>
      unwrap(await api.POST('/api/admin/users/{id}/link', { params: { path: { id: user.id } } })),
  });

  return (
    <Stack>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          {problem && (
            <Alert color="red" role="alert">
              {t('saveFailed', { message: problem.message })}
            </Alert>
          )}
          <TextInput label={t('email')} value={user.email} readOnly />
          <TextInput label={t('name')} autoComplete="off" required {...form.getInputProps('name')} />
          <RoleSelect {...form.getInputProps('role')} />
          <Switch label={t('activeLabel')} {...form.getInputProps('active', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {tc('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      <Divider />
      <Stack gap="xs" aria-label={t('twoFactorSection')} role="group">
        <Text size="sm">{t(twoFactorEnabled ? 'twoFactorEnabledText' : 'twoFactorOffText', { name: user.name })}</Text>
        {resetTwoFactor.isSuccess && (
          <Alert color="green" role="status">
            {t('twoFactorResetDone', { name: user.name })}
          </Alert>
        )}
        {twoFactorEnabled &&
          (confirmingReset ? (
            <Stack gap="xs">
              <Text size="sm">{t('twoFactorResetConfirm', { name: user.name })}</Text>
              <Group>
                <Button color="red" onClick={() => resetTwoFactor.mutate()} loading={resetTwoFactor.isPending}>
                  {t('twoFactorReset')}
                </Button>
                <Button variant="default" onClick={() => setConfirmingReset(false)}>
                  {tc('actions.cancel')}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Button variant="light" color="red" onClick={() => setConfirmingReset(true)} style={{ alignSelf: 'flex-start' }}>
              {t('twoFactorReset')}
            </Button>
          ))}
        {resetTwoFactor.isError && (
          <Alert color="red" role="alert">
            {t('twoFactorResetFailed', {
              message: isProblem(resetTwoFactor.error) ? resetTwoFactor.error.message : String(resetTwoFactor.error),
            })}
          </Alert>
        )}
      </Stack>
      <Divider />
      <Stack gap="xs">
        <Text size="sm">{t('newLinkText')}</Text>
        {newLink.data ? (
          <LinkDelivery issued={newLink.data} person={user} />
        ) : (
          <Button variant="light" onClick={() => newLink.mutate()} loading={newLink.isPending} style={{ alignSelf: 'flex-start' }}>
            {t('newLink')}
          </Button>
        )}
        {newLink.isError && (
          <Alert color="red" role="alert">
            {t('linkFailed', { message: isProblem(newLink.error) ? newLink.error.message : String(newLink.error) })}
          </Alert>
        )}
      </Stack>
    </Stack>
  );
}
