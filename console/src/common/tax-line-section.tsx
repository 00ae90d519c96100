import { Code, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Facts } from './display';
import { formatMoney, formatQuantity } from './format';
import { lineAmount, perUnitAmount } from './order-total';
import { anchorId, sharesOf, taxOf } from './tax-breakdown-model';
import { LineTaxTable } from './tax-tables';
import { isObj, num, text, type Obj } from './values';

/** One line of the order with its selected modifiers, each with its taxes; the target of the warnings' links. */
export function LineSection({
  line,
  index,
  anchorPrefix,
  headingOrder,
  highlighted,
  warnedIds,
}: {
  line: unknown;
  index: number;
  anchorPrefix: string;
  headingOrder: 3 | 4 | 5;
  highlighted: string | null;
  warnedIds: Set<string>;
}) {
  const { t } = useTranslation('taxBreakdown');
  const id = anchorId(anchorPrefix, { line: index });
  const number = index + 1;
  const item = isObj(line) ? line : undefined;
  const product = item ? (text(item.name) ?? text(item.productId) ?? '—') : '—';
  const groups = item && Array.isArray(item.modifierGroups) ? item.modifierGroups : [];
  const modifiers = groups.flatMap((group, groupIndex) =>
    isObj(group) && Array.isArray(group.selectedModifiers)
      ? group.selectedModifiers.map((modifier, modifierIndex) => ({ modifier, groupIndex, modifierIndex }))
      : [],
  );
  return (
    <ItemBox id={id} highlighted={highlighted === id} warned={warnedIds.has(id)} headingId={`${id}-title`}>
      <Title order={headingOrder} id={`${id}-title`} size="h5">
        {t('lineTitle', { line: number, product })}
      </Title>
      {item ? (
        <ItemTaxes
          item={item}
          tableLabel={t('taxesOfLine', { line: number })}
          warned={warnedIds.has(id)}
          productId={text(item.productId)}
        />
      ) : (
        <Text size="sm">{t('invalidLine')}</Text>
      )}
      {modifiers.length > 0 && (
        <Stack gap="sm" mt="sm" pl={{ base: 0, sm: 'md' }} role="group" aria-label={t('modifiersOf', { line: number })}>
          {modifiers.map(({ modifier, groupIndex, modifierIndex }) => {
            const target = { line: index, group: groupIndex, modifier: modifierIndex };
            const modifierId = anchorId(anchorPrefix, target);
            const label = t('modifierLabel', { group: groupIndex + 1, index: modifierIndex + 1 });
            const modifierItem = isObj(modifier) ? modifier : undefined;
            const name = modifierItem ? (text(modifierItem.name) ?? text(modifierItem.productId) ?? '—') : '—';
            return (
              <ItemBox
                key={modifierId}
                id={modifierId}
                highlighted={highlighted === modifierId}
                warned={warnedIds.has(modifierId)}
                headingId={`${modifierId}-title`}
              >
                <Title order={Math.min(6, headingOrder + 1) as 4 | 5 | 6} id={`${modifierId}-title`} size="h6">
                  {t('modifierTitle', { modifier: label, product: name })}
                </Title>
                {modifierItem ? (
                  <ItemTaxes
                    item={modifierItem}
                    tableLabel={t('taxesOfModifier', { line: number, modifier: label })}
                    warned={warnedIds.has(modifierId)}
                    productId={text(modifierItem.productId)}
                  />
                ) : (
                  <Text size="sm">{t('invalidLine')}</Text>
                )}
              </ItemBox>
            );
          })}
        </Stack>
      )}
    </ItemBox>
  );
}

/** A line's or a modifier's box: the target of a warning's link, outlined when the link was followed. */
function ItemBox({
  id,
  highlighted,
  warned,
  headingId,
  children,
}: {
  id: string;
  highlighted: boolean;
  warned: boolean;
  headingId: string;
  children: ReactNode;
}) {
  return (
    <Paper
      component="section"
      id={id}
      tabIndex={-1}
      aria-labelledby={headingId}
      withBorder
      p="sm"
      data-highlighted={highlighted ? 'true' : undefined}
      data-warned={warned ? 'true' : undefined}
      bg={highlighted ? 'yellow.0' : undefined}
      style={{
        scrollMarginTop: 72,
        borderColor: highlighted ? 'var(--mantine-color-yellow-7)' : warned ? 'var(--mantine-color-orange-7)' : undefined,
        borderWidth: highlighted ? 2 : undefined,
        minWidth: 0,
      }}
    >
      {children}
    </Paper>
  );
}

function ItemTaxes({ item, tableLabel, warned, productId }: { item: Obj; tableLabel: string; warned: boolean; productId?: string }) {
  const { t } = useTranslation('taxBreakdown');
  const tax = taxOf(item);
  const quantity = num(item.quantity);
  const facts: [string, ReactNode][] = [];
  if (productId && text(item.name)) facts.push([t('productId'), <Code key="id">{productId}</Code>]);
  if (quantity !== undefined) facts.push([t('quantity'), String(quantity)]);
  facts.push([t('lineAmount'), tax?.amountFrom ? <PerUnitAmountText key="amount" item={item} /> : formatMoney(lineAmount(item))]);
  // The item's shares of the order's discounts, fees and charges, only on an order that has them.
  for (const [key, value] of tax ? sharesOf(tax) : [])
    facts.push([
      t(`shares.${key}`),
      <span key={key} data-share={key}>
        {key === 'netAmount' ? <strong>{formatMoney(value)}</strong> : formatMoney(value)}
      </span>,
    ]);
  if (tax) {
    facts.push([t('ncm'), tax.NCM]);
    if (tax.CEST) facts.push([t('cest'), tax.CEST]);
    facts.push([t('cfop'), tax.CFOP ?? '—']);
    facts.push([t('matchedBy'), t(`matchedByValue.${tax.matchedBy}`, { defaultValue: tax.matchedBy })]);
    facts.push([t('matchedKey'), <Code key="key">{tax.matchedKey}</Code>]);
    if (tax.CST_IBSCBS !== undefined) facts.push([t('cstIbsCbs'), tax.CST_IBSCBS]);
    if (tax.cClassTrib !== undefined) facts.push([t('cClassTrib'), tax.cClassTrib]);
    facts.push([t('totalTax'), <strong key="total">{formatMoney(tax.total_tax)}</strong>]);
  }
  return (
    <Stack gap="xs" mt="xs">
      <Facts items={facts} />
      {!tax && (
        <Text size="sm" c="red.9" fw={600}>
          {t('notTaxed')}
        </Text>
      )}
      {tax && warned && (
        <Text size="sm" c="red.9">
          {t('lineHasWarning')}
        </Text>
      )}
      {tax && <LineTaxTable tax={tax} label={tableLabel} />}
    </Stack>
  );
}

/** The amount the engine computed from the unit price (the item has no total price), and how. */
function PerUnitAmountText({ item }: { item: Obj }) {
  const { t } = useTranslation('taxBreakdown');
  const perUnit = perUnitAmount(item);
  return (
    <span data-amount-from="unitPrice×quantity">
      {formatMoney(perUnit?.amount)}
      <Text span size="xs" c="gray.7" display="block">
        {perUnit
          ? t('perUnitNote', { unitPrice: formatMoney(perUnit.unitPrice), quantity: formatQuantity(perUnit.quantity) })
          : t('perUnitNoteShort')}
      </Text>
    </span>
  );
}
