import { Alert, Anchor, Button, Group, JsonInput, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, isProblem, unwrap, type ApiProblem } from '../../api/client';
import { ErrorState, EmptyState } from '../../common/states';
import { TaxBreakdown } from '../../common/tax-breakdown';
import { exampleOrder } from './example-order';

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function parse(text: string): Parsed {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'not an object' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (caught) {
    return { ok: false, message: caught instanceof Error ? caught.message : String(caught) };
  }
}

/** The order itself: at the root or under `payload`, as the API takes it. */
function orderOf(body: Record<string, unknown>): Record<string, unknown> {
  const wrapped = body.payload;
  return typeof wrapped === 'object' && wrapped !== null && !Array.isArray(wrapped) ? (wrapped as Record<string, unknown>) : body;
}

function storeIdOf(body: Record<string, unknown>): string {
  const store = orderOf(body).store;
  const id = typeof store === 'object' && store !== null ? (store as Record<string, unknown>).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

export function CalculatorPage() {
  const { t } = useTranslation('calculator');
  const [searchParams] = useSearchParams();
  const [text, setText] = useState(() => JSON.stringify(exampleOrder(searchParams.get('storeId')), null, 2));
  const parsed = parse(text);

  const run = useMutation({
    mutationFn: async (body: Record<string, unknown>) =>
      // The body is the platform's order, kept as typed by the user: the API validates it.
      unwrap(await api.POST('/api/enrich-order', { params: { query: { dryRun: true } }, body: body as never })),
  });

  const setStoreId = (storeId: string) => {
    if (!parsed.ok) return;
    const body = structuredClone(parsed.value);
    const order = orderOf(body);
    const store = typeof order.store === 'object' && order.store !== null ? (order.store as Record<string, unknown>) : {};
    order.store = { ...store, id: storeId };
    setText(JSON.stringify(body, null, 2));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed.ok) run.mutate(parsed.value);
  };

  return (
    <Stack gap="md">
      <Title order={1}>{t('title')}</Title>
      <Text size="sm">{t('intro')}</Text>

      <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="calculator-order-title">
        <Stack gap="sm">
          <Title order={2} size="h4" id="calculator-order-title">
            {t('orderSection')}
          </Title>
          <TextInput
            label={t('storeId')}
            description={t('storeIdHint')}
            name="storeId"
            value={parsed.ok ? storeIdOf(parsed.value) : ''}
            disabled={!parsed.ok}
            onChange={(event) => setStoreId(event.currentTarget.value)}
            maw={360}
          />
          <JsonInput
            label={t('order')}
            description={t('orderHint')}
            name="order"
            value={text}
            onChange={setText}
            autosize
            minRows={10}
            maxRows={30}
            spellCheck={false}
            error={parsed.ok ? undefined : t('invalidJson', { message: parsed.message })}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          />
          <Group gap="sm">
            <Button type="submit" loading={run.isPending} disabled={!parsed.ok}>
              {t('calculate')}
            </Button>
            {/* Formatting is asked for, not done on blur: a blur reflow would move the button away under a click. */}
            <Button variant="default" disabled={!parsed.ok} onClick={() => parsed.ok && setText(JSON.stringify(parsed.value, null, 2))}>
              {t('format')}
            </Button>
            <Button variant="default" onClick={() => setText(JSON.stringify(exampleOrder(searchParams.get('storeId')), null, 2))}>
              {t('example')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <section aria-labelledby="calculator-result-title">
        <Stack gap="sm">
          <Title order={2} size="h3" id="calculator-result-title">
            {t('result')}
          </Title>
          {run.isError ? (
            <CalculationProblem
              error={run.error}
              storeId={parsed.ok ? storeIdOf(parsed.value) : ''}
              onRetry={() => parsed.ok && run.mutate(parsed.value)}
            />
          ) : run.data ? (
            <TaxBreakdown payload={run.data.payload} />
          ) : (
            <EmptyState>{t('empty')}</EmptyState>
          )}
        </Stack>
      </section>
    </Stack>
  );
}

function CalculationProblem({ error, storeId, onRetry }: { error: unknown; storeId: string; onRetry: () => void }) {
  const { t } = useTranslation('calculator');
  if (!isProblem(error) || error.status >= 500) return <ErrorState error={error} onRetry={onRetry} />;
  const problem: ApiProblem = error;
  if (problem.code === 'FISCAL_GROUP_NOT_FOUND') {
    return (
      <Alert color="red" role="alert" title={t('noStore', { storeId })}>
        <Anchor component={Link} to={`/fiscal-groups/new?storeId=${encodeURIComponent(storeId)}`}>
          {t('createGroup')}
        </Anchor>
      </Alert>
    );
  }
  return (
    <Alert
      color="red"
      role="alert"
      title={problem.status === 403 ? t('forbidden', { message: problem.message }) : t('refused', { message: problem.message })}
    >
      {problem.details && problem.details.length > 0 && (
        <List size="sm">
          {problem.details.map((detail, index) => (
            <List.Item key={index}>
              <Text span ff="monospace" size="sm">
                {detail.field}
              </Text>
              : {detail.problem}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
