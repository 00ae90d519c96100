import { Box, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from './display';
import { formatMoney, formatRate } from './format';
import {
  taxRowsOf,
  totalsRowsOf,
  type ChargedBases,
  type LineTax,
  type TaxTotals,
  type TotalKey,
  type ZeroReason,
} from './tax-breakdown-model';

/** A line's taxes: one row per tax (CST, base, rate, value, why it is zero) and the line's total. */
export function LineTaxTable({ tax, label }: { tax: LineTax; label: string }) {
  const { t } = useTranslation('taxBreakdown');
  const zeroText = (reason: ZeroReason | undefined) =>
    !reason
      ? undefined
      : reason.kind === 'simples'
        ? t('zeroReason.SIMPLES_NACIONAL')
        : reason.kind === 'code'
          ? t('zeroReason.code', { kind: reason.type, code: reason.code })
          : reason.text;
  const rows = taxRowsOf(tax);
  return (
    <ScrollTable verticalSpacing={4} label={label} minWidth={620}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('columns.tax')}</Table.Th>
          <Table.Th scope="col">{t('columns.cst')}</Table.Th>
          <Table.Th scope="col" ta="right">
            {t('columns.base')}
          </Table.Th>
          <Table.Th scope="col" ta="right">
            {t('columns.rate')}
          </Table.Th>
          <Table.Th scope="col" ta="right">
            {t('columns.value')}
          </Table.Th>
          <Table.Th scope="col">{t('columns.zeroReason')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key} data-tax={row.key}>
            <Table.Th scope="row">
              {t(`taxes.${row.key}`)}
              {row.informative && (
                <Text span size="xs" c="gray.7">
                  {' '}
                  ({t('informative')})
                </Text>
              )}
            </Table.Th>
            <Table.Td>{row.cst ?? '—'}</Table.Td>
            <Table.Td ta="right" data-field="base">
              {formatMoney(row.base)}
              {row.baseReduction !== undefined && (
                <Text span size="xs" c="gray.7" display="block">
                  {t('baseReduction', { rate: formatRate(row.baseReduction) })}
                </Text>
              )}
            </Table.Td>
            <Table.Td ta="right" data-field="rate">
              {formatRate(row.rate)}
            </Table.Td>
            <Table.Td ta="right" data-field="value">
              {formatMoney(row.value)}
            </Table.Td>
            <Table.Td>{zeroText(row.zeroReason) ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr data-tax="total_tax">
          <Table.Th scope="row">{t('totalTax')}</Table.Th>
          <Table.Td colSpan={3} />
          <Table.Td ta="right" fw={700} data-field="value">
            {formatMoney(tax.total_tax)}
          </Table.Td>
          <Table.Td />
        </Table.Tr>
      </Table.Tfoot>
    </ScrollTable>
  );
}

/** The order's totals, the reform's informative ones apart. */
export function TotalsTable({ totals, label, bases }: { totals: TaxTotals; label: string; bases?: ChargedBases }) {
  const { t } = useTranslation('taxBreakdown');
  const { shares, charged, reform } = totalsRowsOf(totals, bases);
  const rows = [...shares, ...charged];
  const name = (key: TotalKey) =>
    key === 'base' || key === 'ICMS_base' || key === 'PIS_base' || key === 'COFINS_base'
      ? t(`bases.${key}`)
      : key === 'discount' || key === 'freight' || key === 'otherCharges'
        ? t(`totalShares.${key}`)
        : t(`taxes.${key}`);
  return (
    <Box maw={520}>
      <Table aria-label={label} data-testid="tax-totals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('item')}</Table.Th>
            <Table.Th scope="col" ta="right">
              {t('amount')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([key, value]) => (
            <Table.Tr key={key} data-tax={key}>
              <Table.Th scope="row" fw={500}>
                {name(key)}
              </Table.Th>
              <Table.Td ta="right" data-field="value">
                {formatMoney(value)}
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr data-tax="total_tax">
            <Table.Th scope="row">{t('totalTax')}</Table.Th>
            <Table.Td ta="right" fw={700} data-field="value">
              {formatMoney(totals.total_tax)}
            </Table.Td>
          </Table.Tr>
          {reform.length > 0 && (
            <Table.Tr>
              <Table.Th scope="colgroup" colSpan={2} fw={500}>
                <Text size="sm" c="gray.7">
                  {t('reformTotals')}
                </Text>
              </Table.Th>
            </Table.Tr>
          )}
          {reform.map(([key, value]) => (
            <Table.Tr key={key} data-tax={key}>
              <Table.Th scope="row" fw={500}>
                {name(key)}
              </Table.Th>
              <Table.Td ta="right" data-field="value">
                {formatMoney(value)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
