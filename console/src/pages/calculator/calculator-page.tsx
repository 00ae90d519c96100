import { Alert, Anchor, Button, Group, JsonInput, List, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, isProblem, unwrap, type ApiProblem } from '../../api/client';
import { ErrorState, EmptyState } from '../../common/states';
import { TaxBreakdown } from '../../common/tax-breakdown';
import {
  calculationRequest,
  emptyAdjustments,
  formFieldOf,
  lineChoicesOf,
  storeIdOf,
  withStoreId,
  type AdjustmentValues,
  type CalculatorMode,
  type EnrichQuery,
} from './calculator-request';
import { exampleIfoodOrder } from './example-ifood-order';
import { exampleOrder } from './example-order';
import { OrderAdjustments } from './order-adjustments';
import { linesOf, withLines, type LineValues } from './order-lines';
import { OrderLinesForm } from './order-lines-form';

type OrderInput = 'form' | 'json';

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

const exampleFor = (mode: CalculatorMode, storeId: string | null) =>
  JSON.stringify(mode === 'ifood' ? exampleIfoodOrder(storeId) : exampleOrder(storeId), null, 2);

export function CalculatorPage() {
  const { t } = useTranslation('calculator');
  const [searchParams] = useSearchParams();
  const [mode, setMode] = useState<CalculatorMode>('order');
  // Each kind of order keeps its own text, so switching back and forth loses nothing typed.
  const [texts, setTexts] = useState<Record<CalculatorMode, string>>(() => ({
    order: exampleFor('order', searchParams.get('storeId')),
    ifood: exampleFor('ifood', searchParams.get('storeId')),
  }));
  const text = texts[mode];
  const setText = (value: string) => setTexts((current) => ({ ...current, [mode]: value }));
  // The platform's order is built with a form of lines by default; its JSON is the other way in, and holds what the form does not show.
  const [input, setInput] = useState<OrderInput>('form');
  const [lines, setLines] = useState<LineValues[]>(() => linesOf(exampleOrder(searchParams.get('storeId'))));
  const byForm = mode === 'order' && input === 'form';
  // Parsed once per change of the text or the lines, not on every keystroke elsewhere in the form.
  const typedOrder = useMemo(() => parse(text), [text]);
  const parsed: Parsed = useMemo(
    () => (byForm && typedOrder.ok ? { ok: true, value: withLines(typedOrder.value, lines) } : typedOrder),
    [byForm, typedOrder, lines],
  );
  const adjustments = useForm<AdjustmentValues>({ initialValues: emptyAdjustments() });

  const run = useMutation({
    mutationFn: async (request: { query: EnrichQuery; body: Record<string, unknown> }) =>
      // The body is the order as typed by the user: the API validates it.
      unwrap(await api.POST('/api/enrich-order', { params: { query: request.query }, body: request.body as never })),
    onError: (error) => {
      // The API's problems with the form's amounts show at their fields too (the alert lists them all).
      if (!isProblem(error) || error.status !== 400) return;
      const byField: Record<string, string> = {};
      for (const detail of error.details ?? []) {
        const field = detail.field ? formFieldOf(detail.field) : undefined;
        if (field) byField[field] = byField[field] ? `${byField[field]}; ${detail.problem ?? ''}` : (detail.problem ?? '');
      }
      adjustments.setErrors(byField);
    },
  });

  const calculate = () => {
    if (!parsed.ok) return;
    adjustments.clearErrors();
    run.mutate(calculationRequest(mode, parsed.value, adjustments.getValues()));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    calculate();
  };

  const switchMode = (value: string) => {
    setMode(value === 'ifood' ? 'ifood' : 'order');
    run.reset();
  };

  /** From the form to the JSON, the order the form built; from the JSON to the form, its products as lines. */
  const switchInput = (value: string) => {
    if (value === 'json' && parsed.ok) setText(JSON.stringify(parsed.value, null, 2));
    if (value === 'form' && typedOrder.ok) setLines(linesOf(typedOrder.value));
    setInput(value === 'json' ? 'json' : 'form');
  };

  const loadExample = () => {
    const example = exampleFor(mode, searchParams.get('storeId'));
    setText(example);
    if (mode === 'order') setLines(linesOf(JSON.parse(example) as Record<string, unknown>));
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
          <Stack gap={4}>
            <Text size="sm" fw={500} id="calculator-mode-label">
              {t('mode.label')}
            </Text>
            <SegmentedControl
              aria-labelledby="calculator-mode-label"
              value={mode}
              onChange={switchMode}
              data={[
                { value: 'order', label: t('mode.order') },
                { value: 'ifood', label: t('mode.ifood') },
              ]}
              maw={360}
            />
            {mode === 'ifood' && (
              <Text size="sm" c="gray.7" data-testid="calculator-ifood-hint">
                {t('mode.ifoodHint')}
              </Text>
            )}
          </Stack>
          <TextInput
            label={t('storeId')}
            description={mode === 'ifood' ? t('storeIdHintIfood') : t('storeIdHint')}
            name="storeId"
            value={parsed.ok ? storeIdOf(mode, parsed.value) : ''}
            disabled={!parsed.ok}
            onChange={(event) =>
              typedOrder.ok && setText(JSON.stringify(withStoreId(mode, typedOrder.value, event.currentTarget.value), null, 2))
            }
            maw={360}
          />
          {mode === 'order' && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="calculator-input-label">
                {t('input.label')}
              </Text>
              <SegmentedControl
                aria-labelledby="calculator-input-label"
                value={input}
                onChange={switchInput}
                data={[
                  { value: 'form', label: t('input.form'), disabled: !typedOrder.ok },
                  { value: 'json', label: t('input.json') },
                ]}
                maw={360}
              />
            </Stack>
          )}
          {byForm ? (
            <OrderLinesForm lines={lines} onChange={setLines} />
          ) : (
            <JsonInput
              label={mode === 'ifood' ? t('ifoodOrder') : t('order')}
              description={mode === 'ifood' ? t('ifoodOrderHint') : t('orderHint')}
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
          )}
          {/* iFood's order carries its own benefits, fee and additional fees: the form is for the platform's shape. */}
          {mode === 'order' && <OrderAdjustments form={adjustments} lines={lineChoicesOf(parsed.ok ? parsed.value : undefined)} />}
          <Group gap="sm">
            <Button type="submit" loading={run.isPending} disabled={!parsed.ok}>
              {t('calculate')}
            </Button>
            {/* Formatting is asked for, not done on blur: a blur reflow would move the button away under a click. */}
            {!byForm && (
              <Button variant="default" disabled={!parsed.ok} onClick={() => parsed.ok && setText(JSON.stringify(parsed.value, null, 2))}>
                {t('format')}
              </Button>
            )}
            <Button variant="default" onClick={loadExample}>
              {mode === 'ifood' ? t('exampleIfood') : t('example')}
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
            <CalculationProblem error={run.error} storeId={parsed.ok ? storeIdOf(mode, parsed.value) : ''} onRetry={calculate} />
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
