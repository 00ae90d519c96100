import { Table, Text } from '@mantine/core';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../common/display';
import { formatMoney, formatQuantity, formatRate } from '../../../common/format';
import { invoiceMessages } from './invoice-messages';
import { decimalOf, type InvoiceItem, type InvoiceTaxRow, type InvoiceTotal } from './invoice-model';

const money = (value: string | undefined) => (value === undefined ? '—' : formatMoney(decimalOf(value)));
const rate = (value: string | undefined) => (value === undefined ? '—' : formatRate(decimalOf(value)));

/** A unit price keeps the up to 10 decimals the invoice prints (vProd ÷ qCom), where BRL's two would round it. */
function unitPrice(value: string): string {
  const number = decimalOf(value);
  if (number === undefined) return '—';
  return new Intl.NumberFormat(i18next.language, { style: 'currency', currency: 'BRL', maximumFractionDigits: 10 }).format(number);
}

/** The `prod` of each item: what it is (name, code, NCM, CFOP), how many, and its amounts and shares. */
export function InvoiceItemsTable({ items }: { items: InvoiceItem[] }) {
  const { t } = useTranslation('invoice');
  const amountColumns = ['vProd', 'vDesc', 'vFrete', 'vOutro'] as const;
  return (
    <ScrollTable label={t('itemsTable')} minWidth={980} verticalSpacing={4} striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('columns.nItem')}</Table.Th>
          <Table.Th scope="col">{t('columns.product')}</Table.Th>
          <Table.Th scope="col">{t('columns.NCM')}</Table.Th>
          <Table.Th scope="col">{t('columns.CFOP')}</Table.Th>
          <Table.Th scope="col" ta="right">
            {t('columns.qCom')}
          </Table.Th>
          <Table.Th scope="col" ta="right">
            {t('columns.vUnCom')}
          </Table.Th>
          {amountColumns.map((column) => (
            <Table.Th key={column} scope="col" ta="right">
              {t(`columns.${column}`)}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.nItem} data-item={item.nItem}>
            <Table.Th scope="row">{item.nItem}</Table.Th>
            <Table.Td>
              {item.xProd}
              <Text span size="xs" c="gray.7" display="block">
                {item.cProd}
              </Text>
            </Table.Td>
            <Table.Td>
              {item.NCM}
              {item.CEST && (
                <Text span size="xs" c="gray.7" display="block">
                  {t('columns.CEST')} {item.CEST}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{item.CFOP}</Table.Td>
            <Table.Td ta="right">{decimalOf(item.qCom) === undefined ? '—' : formatQuantity(decimalOf(item.qCom)!)}</Table.Td>
            <Table.Td ta="right">{unitPrice(item.vUnCom)}</Table.Td>
            {amountColumns.map((column) => (
              <Table.Td key={column} ta="right" data-field={column}>
                {money(item[column])}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

function CstCell({ row }: { row: InvoiceTaxRow }) {
  const { t } = useTranslation('invoice');
  return (
    <>
      {row.csosn ? t('csosn', { code: row.csosn }) : (row.cst ?? '—')}
      {row.classification && (
        <Text span size="xs" c="gray.7" display="block">
          {t('classification', { code: row.classification })}
        </Text>
      )}
    </>
  );
}

/** Every tax of every item, a row each: the group printed, CST or CSOSN, base (vBC), rate and value. */
export function InvoiceTaxesTable({ items }: { items: InvoiceItem[] }) {
  const { t } = useTranslation('invoice');
  return (
    <ScrollTable label={t('taxesTable')} minWidth={760} verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('columns.nItem')}</Table.Th>
          <Table.Th scope="col">{t('columns.tax')}</Table.Th>
          <Table.Th scope="col">{t('columns.group')}</Table.Th>
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
        </Table.Tr>
      </Table.Thead>
      {items.map((item) => (
        <Table.Tbody key={item.nItem} data-item={item.nItem}>
          {item.taxes.map((row, index) => (
            <Table.Tr key={`${row.tax}-${index}`} data-tax={row.tax}>
              <Table.Td>{index === 0 ? item.nItem : ''}</Table.Td>
              <Table.Th scope="row">{t(`taxes.${row.tax}`)}</Table.Th>
              <Table.Td>{row.group}</Table.Td>
              <Table.Td>
                <CstCell row={row} />
              </Table.Td>
              <Table.Td ta="right" data-field="base">
                {money(row.base)}
                {row.baseReduction !== undefined && (
                  <Text span size="xs" c="gray.7" display="block">
                    {t('baseReduction', { rate: rate(row.baseReduction) })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right" data-field="rate">
                {rate(row.rate)}
              </Table.Td>
              <Table.Td ta="right" data-field="value">
                {money(row.value)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      ))}
    </ScrollTable>
  );
}

type TotalElement = keyof typeof invoiceMessages.en.totals;
const isNamedTotal = (element: string): element is TotalElement => Object.hasOwn(invoiceMessages.en.totals, element);

/** The document's totals, each named in the reader's language beside its element's path in the schema. */
export function InvoiceTotalsTable({ totals }: { totals: InvoiceTotal[] }) {
  const { t } = useTranslation('invoice');
  const name = (total: InvoiceTotal) => (isNamedTotal(total.element) ? `${t(`totals.${total.element}`)} (${total.path})` : total.path);
  return (
    <ScrollTable label={t('totalsTable')} minWidth={360} verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('columns.total')}</Table.Th>
          <Table.Th scope="col" ta="right">
            {t('columns.amount')}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {totals.map((total) => (
          <Table.Tr key={total.path} data-total={total.path}>
            <Table.Th scope="row" fw={total.element === 'vNF' ? 700 : undefined}>
              {name(total)}
            </Table.Th>
            <Table.Td ta="right" fw={total.element === 'vNF' ? 700 : undefined}>
              {money(total.value)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}
