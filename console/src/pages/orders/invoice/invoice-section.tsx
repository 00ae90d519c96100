import { Alert, Button, Code, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isProblem, toProblem, unwrap, type ApiProblem, type paths, type Schemas } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';
import { ScrollTable } from '../../../common/display';
import { ErrorState, LoadingState } from '../../../common/states';
import { invoiceMessages } from './invoice-messages';
import { invoiceItemsOf, invoiceProblemsOf, invoiceTotalsOf, type InvoiceProblem } from './invoice-model';
import { InvoiceItemsTable, InvoiceTaxesTable, InvoiceTotalsTable } from './invoice-tables';

type NfeQuery = NonNullable<paths['/api/orders/{orderId}/nfe']['get']['parameters']['query']>;
type NfeModel = NonNullable<NfeQuery['model']>;
type NfeFreightAs = NonNullable<NfeQuery['freightAs']>;

const MODELS: NfeModel[] = ['65', '55'];
const FREIGHT_AS: NfeFreightAs[] = ['vFrete', 'vOutro'];
const NOT_ISSUABLE = 'NFE_NOT_ISSUABLE';

type ProblemCode = keyof typeof invoiceMessages.en.notIssuable.codes;
const isExplainedCode = (code: string | undefined): code is ProblemCode =>
  code !== undefined && Object.hasOwn(invoiceMessages.en.notIssuable.codes, code);

/** Saves a text as a file the browser downloads. */
function saveText(text: string, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The order's invoice items as the NF-e or NFC-e will print them, read from the API when asked
 * for: opening an order costs no extra request, and a large order's items are built only for who
 * wants them. An order that cannot be printed says why, item by item.
 */
export function InvoiceSection({ orderId, enrichedPayload }: { orderId: string; enrichedPayload: unknown }) {
  const { t } = useTranslation('invoice');
  const [requested, setRequested] = useState(false);
  const [model, setModel] = useState<NfeModel>('65');
  const [freightAs, setFreightAs] = useState<NfeFreightAs>('vFrete');
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<ApiProblem | null>(null);

  const query = useQuery({
    queryKey: queryKeys.orders.nfe(orderId, model, freightAs),
    queryFn: async (): Promise<Schemas['NfeItemsDto']> => {
      const items = unwrap(await api.GET('/api/orders/{orderId}/nfe', { params: { path: { orderId }, query: { model, freightAs } } }));
      // The route answers XML only when asked for it; its type names both.
      if (typeof items === 'string') throw toProblem(0, 'The invoice items came as text, not JSON');
      return items;
    },
    enabled: requested,
  });

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const result = await api.GET('/api/orders/{orderId}/nfe', {
        params: { path: { orderId }, query: { model, freightAs } },
        headers: { Accept: 'application/xml' },
        parseAs: 'text',
      });
      if (!result.response.ok || typeof result.data !== 'string') throw toProblem(result.response.status, result.error);
      saveText(result.data, 'application/xml', `nfe-items-${orderId}-${model}.xml`);
    } catch (error) {
      setDownloadError(isProblem(error) ? error : { status: 0, message: error instanceof Error ? error.message : String(error) });
    } finally {
      setDownloading(false);
    }
  };

  const problem = query.isError && isProblem(query.error) ? query.error : null;
  const notIssuable = problem !== null && problem.status === 422 && problem.code === NOT_ISSUABLE;
  const items = useMemo(() => (query.data ? invoiceItemsOf(query.data) : []), [query.data]);

  return (
    <Stack gap="sm" data-testid="invoice-items">
      <Text size="sm">{t('intro')}</Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('model')}
          value={model}
          onChange={(event) => setModel(event.currentTarget.value === '55' ? '55' : '65')}
          data={MODELS.map((value) => ({ value, label: t(`models.${value}`) }))}
        />
        <NativeSelect
          label={t('freightAs')}
          value={freightAs}
          onChange={(event) => setFreightAs(event.currentTarget.value === 'vOutro' ? 'vOutro' : 'vFrete')}
          data={FREIGHT_AS.map((value) => ({ value, label: t(`freightAsOptions.${value}`) }))}
        />
        {!requested && <Button onClick={() => setRequested(true)}>{t('show')}</Button>}
        {query.isSuccess && (
          <Button variant="default" onClick={() => void download()} loading={downloading}>
            {t('download')}
          </Button>
        )}
      </Group>
      {downloadError && (
        <Alert color="red" role="alert">
          {t('downloadFailed', { message: downloadError.message })}
        </Alert>
      )}
      {requested && query.isPending && <LoadingState label={t('loading')} />}
      {notIssuable && <NotIssuable problems={invoiceProblemsOf(problem.details, enrichedPayload)} />}
      {query.isError && !notIssuable && <ErrorState error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && (
        <Stack gap="md">
          <Text size="sm" c="gray.7" data-testid="invoice-summary">
            {t('summary', { model: String(query.data.model), crt: String(query.data.crt), layout: query.data.layout })}
          </Text>
          <InvoiceItemsTable items={items} />
          <InvoiceTaxesTable items={items} />
          <InvoiceTotalsTable totals={invoiceTotalsOf(query.data)} />
        </Stack>
      )}
    </Stack>
  );
}

/** Why the order cannot be printed, one row per cause: the item (its name and path) and the reason in the reader's language. */
function NotIssuable({ problems }: { problems: InvoiceProblem[] }) {
  const { t } = useTranslation('invoice');
  return (
    <Alert color="red" title={t('notIssuable.title')} data-testid="invoice-not-issuable">
      <Stack gap="xs">
        <Text size="sm">{t('notIssuable.text')}</Text>
        <ScrollTable label={t('notIssuable.table')} minWidth={560} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('notIssuable.item')}</Table.Th>
              <Table.Th scope="col">{t('notIssuable.why')}</Table.Th>
              <Table.Th scope="col">{t('notIssuable.code')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {problems.map((problem, index) => (
              <Table.Tr key={`${problem.field ?? ''}-${index}`}>
                <Table.Th scope="row">
                  {problem.itemName ?? t('notIssuable.unnamed')}
                  {problem.field && (
                    <Text span size="xs" c="gray.7" display="block">
                      <Code>{problem.field}</Code>
                    </Text>
                  )}
                </Table.Th>
                <Table.Td>
                  {isExplainedCode(problem.code) ? (
                    t(`notIssuable.codes.${problem.code}`)
                  ) : (
                    // A code of a newer service: its own sentence, in English.
                    <span lang="en">{problem.problem ?? '—'}</span>
                  )}
                </Table.Td>
                <Table.Td>{problem.code ? <Code>{problem.code}</Code> : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ScrollTable>
      </Stack>
    </Alert>
  );
}
