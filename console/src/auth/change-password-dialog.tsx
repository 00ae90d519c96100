import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api, isProblem, unwrap, type ApiProblem } from '../api/client';
import { newPasswordSchema, passwordRejections } from './password-rules';
import { session } from './session';

type Values = { current: string; password: string; confirm: string };

/** `PUT /api/auth/session/password`: the other sessions end; this one continues with a new CSRF token. */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const schema = useMemo(
    () => z.intersection(z.object({ current: z.string().min(1, { message: t('password.required') }) }), newPasswordSchema(t)),
    [t],
  );
  const form = useForm<Values>({
    initialValues: { current: '', password: '', confirm: '' },
    validate: schemaResolver(schema, { sync: true }),
  });
  const change = useMutation({
    mutationFn: async (values: Values) =>
      unwrap(await api.PUT('/api/auth/session/password', { body: { currentPassword: values.current, newPassword: values.password } })),
    onSuccess: (renewed) => {
      session.signIn(renewed);
      form.reset();
    },
    onError: (error) => {
      // A wrong current password is a 400 naming `currentPassword`: said at that field.
      if (!isProblem(error)) return;
      const wrong = error.details?.find((detail) => detail.field === 'currentPassword');
      if (wrong) form.setErrors({ current: wrong.problem ?? error.message });
    },
  });
  const problem: ApiProblem | null = change.error
    ? isProblem(change.error)
      ? change.error
      : { status: 0, message: String(change.error) }
    : null;
  const rejections = problem ? passwordRejections(problem, t) : null;

  return (
    <Modal opened onClose={onClose} title={t('changePassword.title')} closeButtonProps={{ 'aria-label': t('actions.close') }}>
      {change.isSuccess ? (
        <Stack>
          <Alert color="green" role="status">
            {t('changePassword.done')}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('actions.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => change.mutate(values))} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('changePassword.rules')}</Text>
            {problem && (
              <Alert color="red" role="alert" title={t('changePassword.failed', { message: problem.message })}>
                {rejections && (
                  <List size="sm">
                    {rejections.map((reason) => (
                      <List.Item key={reason}>{reason}</List.Item>
                    ))}
                  </List>
                )}
              </Alert>
            )}
            <PasswordInput
              label={t('changePassword.current')}
              autoComplete="current-password"
              required
              {...form.getInputProps('current')}
            />
            <PasswordInput label={t('changePassword.new')} autoComplete="new-password" required {...form.getInputProps('password')} />
            <PasswordInput label={t('changePassword.confirm')} autoComplete="new-password" required {...form.getInputProps('confirm')} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" loading={change.isPending}>
                {t('changePassword.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
