import { Alert, Button, Group, List, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DESCRIPTION_STYLES } from './styles';
import { NcmField } from './ncm-field';
import { api, isProblem, unwrap, type ApiProblem, type Schemas } from '../../api/client';
import { problemsByField } from '../../forms/api-problems';
import { validationProblemText } from '../../api/validation-problem';

export type Category = Schemas['ProductFiscalCategoryResponseDto'];

const FIELDS = ['productId', 'productName', 'ncm', 'externalProductId'] as const;
type CategoryValues = Record<(typeof FIELDS)[number], string>;

/** Create (no `category`) or edit a product fiscal category; the schema's and the API's problems sit next to their fields. */
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
  // Only what is certainly wrong is checked here (a required field left blank); the NCM's form is the API's to judge.
  const schema = useMemo(() => {
    const required = z.string().refine((value) => value.trim() !== '', { message: t('required') });
    return z.object({ productId: required, productName: required, ncm: required });
  }, [t]);
  const form = useForm<CategoryValues>({
    initialValues: {
      productId: category?.productId ?? '',
      productName: category?.productName ?? '',
      ncm: category?.ncm ?? '',
      externalProductId: category?.externalProductId ?? '',
    },
    validate: schemaResolver(schema, { sync: true }),
  });
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const save = useMutation({
    mutationFn: async (values: CategoryValues): Promise<Category> => {
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
    onMutate: () => setProblem(undefined),
    onSuccess: onSaved,
    onError: (error) => {
      const read: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
      setProblem(read);
      form.setErrors(problemsByField(read, FIELDS).byField);
    },
  });
  const others = problemsByField(problem, FIELDS).rest;

  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="sm">
        {problem && (
          <Alert color="red" role="alert" title={t('saveFailed', { message: problem.message })}>
            {others.length > 0 && (
              <List size="sm">
                {others.map((d, index) => (
                  <List.Item key={index}>{[d.field, validationProblemText(d.problem)].filter(Boolean).join(': ')}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <TextInput label={t('productId')} required disabled={!!category} data-autofocus {...form.getInputProps('productId')} />
        <TextInput label={t('productName')} required {...form.getInputProps('productName')} />
        <NcmField label={t('ncm')} value={form.values.ncm} onChange={(ncm) => form.setFieldValue('ncm', ncm)} error={form.errors.ncm} />
        <TextInput
          label={t('externalProductId')}
          description={t('externalHint')}
          styles={DESCRIPTION_STYLES}
          {...form.getInputProps('externalProductId')}
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
