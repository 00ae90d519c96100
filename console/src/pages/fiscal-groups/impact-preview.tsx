import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { Facts, RecordTable } from '../../common/display';
import { formatDateTime, formatMoney } from '../../common/format';

type Impact = Schemas['FiscalGroupImpactDto'];
type ImpactLine = Schemas['ImpactLineDto'];
type LostLine = Schemas['ImpactLostLineDto'];
type TaxName = keyof Impact['totals'];

const TAX_ORDER: TaxName[] = [
  'ICMS_value',
  'PIS_value',
  'COFINS_value',
  'FCP_value',
  'CBS_value',
  'IBS_UF_value',
  'IBS_Mun_value',
  'total_tax',
];

/** A change in reais with its sign, so that a rise and a fall read apart without colour. */
function signedMoney(value: number | undefined): string {
  if (value === undefined) return '—';
  const text = formatMoney(Math.abs(value));
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text;
}

/** Where a line is, as people count: "Item 2", or a modifier's option within its item. */
function lineLabel(path: string, t: TFunction<'fiscalGroups'>): string {
  const at = /^order\.products\[(\d+)\](?:\.modifierGroups\[(\d+)\]\.selectedModifiers\[(\d+)\])?$/.exec(path);
  if (!at) return path;
  const item = Number(at[1]) + 1;
  return at[2] === undefined
    ? t('impact.item', { item })
    : t('impact.option', { item, group: Number(at[2]) + 1, option: Number(at[3]) + 1 });
}

/** The product by its name, with its code (the product id) under it. */
function ProductCell({ line }: { line: ImpactLine }) {
  if (!line.productName) return <Text size="sm">{line.productId ?? '—'}</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm">{line.productName}</Text>
      {line.productId && (
        <Text size="xs" c="gray.7" ff="monospace">
          {line.productId}
        </Text>
      )}
    </Stack>
  );
}

/** What the edited group would change on the recent orders: counts, per-tax totals, the lines losing their taxes, the largest changes. */
export function ImpactPreview({ impact }: { impact: Impact }) {
  const { t } = useTranslation('fiscalGroups');
  const orderLink = (line: ImpactLine) => (
    <Anchor component={Link} to={`/orders/${encodeURIComponent(line.orderDbId)}`}>
      {line.orderId}
    </Anchor>
  );
  const lineColumns = [
    { header: t('impact.order'), cell: orderLink },
    { header: t('impact.line'), cell: (line: ImpactLine) => lineLabel(line.path, t) },
    { header: t('impact.product'), cell: (line: ImpactLine) => <ProductCell line={line} /> },
  ];
  const total = (values: ImpactLine['before']) => (values ? formatMoney(values.total_tax) : t('impact.noTax'));
  const taxes = TAX_ORDER.filter((name) => impact.totals[name] !== undefined);
  const lost = impact.linesLosingTaxes;
  return (
    <Stack gap="md" data-testid="impact-preview">
      <Text size="sm">{t('impact.window', { from: formatDateTime(impact.receivedFrom), to: formatDateTime(impact.receivedTo) })}</Text>
      {impact.moreOrdersInWindow && <Alert color="yellow">{t('impact.more', { max: impact.maxOrders })}</Alert>}
      <Facts
        minColumn="12rem"
        items={[
          [
            t('impact.compared'),
            `${t('impact.ordersCount', { count: impact.compared.orders })} · ${t('impact.linesCount', { count: impact.compared.lines })}`,
          ],
          [
            t('impact.changed'),
            <span key="changed" data-testid="impact-changed">
              {`${t('impact.ordersCount', { count: impact.changed.orders })} · ${t('impact.linesCount', { count: impact.changed.lines })}`}
            </span>,
          ],
        ]}
      />

      <Title order={3} size="h5">
        {t('impact.totals')}
      </Title>
      <RecordTable<TaxName>
        records={taxes}
        label={t('impact.totalsTable')}
        empty=""
        minWidth={420}
        columns={[
          { header: t('impact.tax'), cell: (name) => t(`impact.taxes.${name}`) },
          { header: t('impact.before'), cell: (name) => formatMoney(impact.totals[name]!.before) },
          { header: t('impact.after'), cell: (name) => formatMoney(impact.totals[name]!.after) },
          { header: t('impact.change'), cell: (name) => signedMoney(impact.totals[name]!.change) },
        ]}
      />

      {lost.lines > 0 && (
        <>
          <Title order={3} size="h5">
            {t('impact.losing')}
          </Title>
          <Alert color="red" role="alert" data-testid="impact-losing">
            {t('impact.losingWarning', { count: lost.lines, orders: lost.orders })}
            {lost.listed.length < lost.lines && ` ${t('impact.losingListed', { count: lost.listed.length })}`}
          </Alert>
          <RecordTable<LostLine>
            records={lost.listed}
            label={t('impact.losingTable')}
            empty=""
            minWidth={720}
            columns={[
              ...lineColumns,
              { header: t('impact.before'), cell: (line) => total(line.before) },
              {
                header: t('impact.warning'),
                cell: (line) =>
                  line.warning ? (
                    <Text size="sm" lang="en">
                      {line.warning.code}: {line.warning.message}
                    </Text>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        </>
      )}

      <Title order={3} size="h5">
        {t('impact.largest')}
      </Title>
      <RecordTable<ImpactLine>
        records={impact.largestChanges}
        label={t('impact.largestTable')}
        empty={t('impact.none')}
        minWidth={720}
        columns={[
          ...lineColumns,
          { header: t('impact.before'), cell: (line) => total(line.before) },
          { header: t('impact.after'), cell: (line) => total(line.after) },
          { header: t('impact.change'), cell: (line) => signedMoney(line.change.total_tax) },
        ]}
      />
    </Stack>
  );
}
