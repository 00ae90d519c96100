import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput, type NativeSelectProps } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';
import { ROLES } from '../../auth/roles';
import { problemsByField } from '../../forms/api-problems';
import { INVITE_FIELDS, inviteBody, inviteFormValues, inviteSchema, type InviteValues } from './person-form';

/** `POST /api/admin/users`: the answer's one-time link is shown by the page, once. */
export function InviteForm({ onInvited, onCancel }: { onInvited: (invited: Schemas['CreatedUserDto']) => void; onCancel: () => void }) {
  const { t } = useTranslation('people');
  const { t: tc } = useTranslation();
  const schema = useMemo(() => inviteSchema(t), [t]);
  const form = useForm<InviteValues>({ initialValues: inviteFormValues(), validate: schemaResolver(schema, { sync: true }) });
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const invite = useMutation({
    mutationFn: async (values: InviteValues) => unwrap(await api.POST('/api/admin/users', { body: inviteBody(values) })),
    onMutate: () => setProblem(undefined),
    onSuccess: onInvited,
    onError: (error) => {
      const read: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      if (read.code === 'EMAIL_IN_USE') {
        form.setErrors({ email: t('emailInUse') });
        return;
      }
      setProblem(read);
      form.setErrors(problemsByField(read, INVITE_FIELDS).byField);
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => invite.mutate(values))} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('inviteText')}</Text>
        {problem && (
          <Alert color="red" role="alert">
            {t('saveFailed', { message: problem.message })}
          </Alert>
        )}
        <TextInput label={t('email')} type="email" autoComplete="off" required {...form.getInputProps('email')} />
        <TextInput label={t('name')} autoComplete="off" required {...form.getInputProps('name')} />
        <RoleSelect {...form.getInputProps('role')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={invite.isPending}>
            {t('inviteSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The three roles, each described by what it adds; takes `form.getInputProps('role')`. */
export function RoleSelect(props: Omit<NativeSelectProps, 'data' | 'label' | 'description'>) {
  const { t } = useTranslation('people');
  const { t: tc } = useTranslation();
  const role = ROLES.find((known) => known === props.value);
  return (
    <NativeSelect
      {...props}
      label={t('role')}
      required
      data={ROLES.map((value) => ({ value, label: tc(`roles.${value}`) }))}
      description={role ? t(`roleHelp.${role}`) : undefined}
    />
  );
}
