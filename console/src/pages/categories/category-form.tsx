import { Alert, Button, Group, List, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DESCRIPTION_STYLES } from './styles';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';

export type Category = Schemas['ProductFiscalCategoryResponseDto'];

const FIELDS = ['productId', 'productName', 'ncm', 'externalProductId'] as const;

/** Create (no `category`) or edit a product fiscal category; the API's problems sit next to their fields. */
export function CategoryForm({
  category,
  onSaved,
  onCancel,
}: {
  category?: Category;
  onSaved: (saved: Category) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('categories');
  const { t: tc } = useTranslation();
  const [values, setValues] = useState({
    productId: category?.productId ?? '',
    productName: category?.productName ?? '',
    ncm: category?.ncm ?? '',
    externalProductId: category?.externalProductId ?? '',
  });
  const save = useMutation({
    mutationFn: async (): Promise<Category> => {
      const externalProductId = values.externalProductId.trim();
      if (category) {
        return unwrap(
          await api.PUT('/api/admin/product-fiscal-categories/{productId}', {
            params: { path: { productId: category.productId } },
            body: { productName: values.productName.trim(), ncm: values.ncm.trim(), externalProductId: externalProductId || null },
          }),
        );
      }
      return unwrap(
        await api.POST('/api/admin/product-fiscal-categories', {
          body: {
            productId: values.productId.trim(),
            productName: values.productName.trim(),
            ncm: values.ncm.trim(),
            ...(externalProductId ? { externalProductId } : {}),
          },
        }),
      );
    },
    onSuccess: onSaved,
  });

  const problem: ApiProblem | undefined = save.error
    ? isProblem(save.error)
      ? save.error
      : { status: 0, message: String(save.error) }
    : undefined;
  const errorOf = (field: string) =>
    problem?.details
      ?.filter((d) => d.field === field)
      .map((d) => d.problem)
      .join('; ') || undefined;
  const others = problem?.details?.filter((d) => !FIELDS.includes(d.field as (typeof FIELDS)[number])) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const change = (field: (typeof FIELDS)[number]) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert" title={t('saveFailed', { message: problem.message })}>
            {others.length > 0 && (
              <List size="sm">
                {others.map((d, index) => (
                  <List.Item key={index}>{[d.field, d.problem].filter(Boolean).join(': ')}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <TextInput
          label={t('productId')}
          required
          value={values.productId}
          onChange={change('productId')}
          disabled={!!category}
          error={errorOf('productId')}
          data-autofocus
        />
        <TextInput
          label={t('productName')}
          required
          value={values.productName}
          onChange={change('productName')}
          error={errorOf('productName')}
        />
        <TextInput
          label={t('ncm')}
          description={t('ncmHint')}
          styles={DESCRIPTION_STYLES}
          required
          inputMode="numeric"
          value={values.ncm}
          onChange={change('ncm')}
          error={errorOf('ncm')}
        />
        <TextInput
          label={t('externalProductId')}
          description={t('externalHint')}
          styles={DESCRIPTION_STYLES}
          value={values.externalProductId}
          onChange={change('externalProductId')}
          error={errorOf('externalProductId')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {category ? tc('actions.save') : tc('actions.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
