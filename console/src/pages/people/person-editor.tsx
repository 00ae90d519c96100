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

/** Name, role and active flag (`PATCH /api/admin/users/{id}`), and a new one-time link. */
export function PersonEditor({ user, onSaved, onCancel }: { user: UserDto; onSaved: (saved: UserDto) => void; onCancel: () => void }) {
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
