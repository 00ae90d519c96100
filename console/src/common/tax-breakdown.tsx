import { Anchor, Badge, Box, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../api/client';
import { Facts, ScrollTable } from './display';
import { formatDateTime, formatMoney, formatRate } from './format';
import { lineAmount } from './order-total';
import { isObj, num, text, type Obj } from './values';

export type EnrichedOrderPayload = components['schemas']['EnrichedOrderPayloadDto'];
type LineTax = components['schemas']['LineTaxDto'];
type TaxWarning = components['schemas']['TaxWarningDto'];
type TaxTotals = components['schemas']['TaxTotalsDto'];
type HeadingOrder = 2 | 3 | 4;

/** Lines drawn at first; a 2000-line order is drawn on demand, so the page stays responsive. */
const LINES_PER_STEP = 50;

/** Where a warning's `path` points: `order.products[2]` or `order.products[2].modifierGroups[0].selectedModifiers[1]`. */
export interface WarningTarget {
  line: number;
  group?: number;
  modifier?: number;
}

export function warningTarget(path: string): WarningTarget | undefined {
  const match = /^order\.products\[(\d+)\](?:\.modifierGroups\[(\d+)\]\.selectedModifiers\[(\d+)\])?/.exec(path);
  if (!match) return undefined;
  const line = Number(match[1]);
  return match[2] === undefined ? { line } : { line, group: Number(match[2]), modifier: Number(match[3]) };
}

/** The line a URL fragment (`#tax-line-2`, `#tax-line-0-modifier-0-1`) names, for this breakdown's prefix. */
function targetOfFragment(prefix: string, fragment: string): WarningTarget | undefined {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^#${escaped}-line-(\\d+)(?:-modifier-(\\d+)-(\\d+))?$`).exec(fragment);
  if (!match) return undefined;
  const line = Number(match[1]);
  return match[2] === undefined ? { line } : { line, group: Number(match[2]), modifier: Number(match[3]) };
}

const linesToShow = (line: number) => Math.max(LINES_PER_STEP, Math.ceil((line + 1) / LINES_PER_STEP) * LINES_PER_STEP);

function anchorId(prefix: string, target: WarningTarget): string {
  return target.group === undefined
    ? `${prefix}-line-${target.line}`
    : `${prefix}-line-${target.line}-modifier-${target.group}-${target.modifier}`;
}

const taxOf = (item: Obj): LineTax | null => (isObj(item.tax) ? (item.tax as unknown as LineTax) : null);

/**
 * The taxes of an enriched order, as the tax engine wrote them: the document (fiscal group,
 * totals), the warnings (each a link to its line) and, per line and per selected modifier,
 * base, rate and value of every tax, CST/CSOSN, NCM, CFOP, zero reasons and the matched rule.
 * Used by the order detail (the stored `enrichedPayload`) and the tax calculator (a dry run).
 * `anchorPrefix` keeps the line anchors unique when a page shows more than one breakdown;
 * `headingOrder` is the level of its section headings (the page's own heading sits above).
 */
export function TaxBreakdown({
  payload,
  anchorPrefix = 'tax',
  headingOrder = 3,
}: {
  payload: EnrichedOrderPayload;
  anchorPrefix?: string;
  headingOrder?: HeadingOrder;
}) {
  const { t } = useTranslation('taxBreakdown');
  const summary = payload.taxSummary;
  const products: unknown[] = isObj(payload.order) && Array.isArray(payload.order.products) ? payload.order.products : [];
  const warnings = summary?.warnings ?? [];
  // A link to a line (the fragment a followed warning leaves in the URL) opens with that line highlighted.
  const [opened] = useState(() => targetOfFragment(anchorPrefix, window.location.hash));
  const [shown, setShown] = useState(() => (opened ? linesToShow(opened.line) : LINES_PER_STEP));
  const [highlighted, setHighlighted] = useState<string | null>(() => (opened ? anchorId(anchorPrefix, opened) : null));

  const warnedIds = new Set(
    warnings.map((warning) => warningTarget(warning.path)).flatMap((target) => (target ? [anchorId(anchorPrefix, target)] : [])),
  );

  // Once the highlighted line is drawn: bring it into view and move the focus there (keyboard users follow the link).
  useEffect(() => {
    if (!highlighted) return;
    const element = document.getElementById(highlighted);
    if (!element) return;
    element.scrollIntoView({ block: 'start' });
    element.focus({ preventScroll: true });
  }, [highlighted, shown]);

  const goTo = (target: WarningTarget) => {
    const id = anchorId(anchorPrefix, target);
    if (target.line >= shown) setShown(linesToShow(target.line));
    setHighlighted(id);
    // The fragment makes the line linkable; the router's own state is kept as it is.
    window.history.replaceState(window.history.state, '', `#${id}`);
  };

  const sub = (headingOrder + 1) as 3 | 4 | 5;
  return (
    <Stack gap="lg" data-testid="tax-breakdown">
      {summary && (
        <section aria-labelledby={`${anchorPrefix}-document`}>
          <Title order={headingOrder} id={`${anchorPrefix}-document`} mb="xs">
            {t('document')}
          </Title>
          <Facts
            items={[
              [t('fiscalGroup'), <Code key="group">{summary.fiscalGroupId}</Code>],
              [t('externalId'), summary.externalId ?? '—'],
              [t('uf'), summary.uf],
              [t('taxRegime'), summary.taxRegime ?? '—'],
              [t('engineVersion'), summary.engineVersion],
              [t('calculatedAt'), formatDateTime(summary.calculatedAt)],
            ]}
          />
        </section>
      )}

      {summary && (
        <section aria-labelledby={`${anchorPrefix}-totals`}>
          <Title order={headingOrder} id={`${anchorPrefix}-totals`} mb="xs">
            {t('totals')}
          </Title>
          <TotalsTable totals={summary.totals} label={t('totalsTable')} />
        </section>
      )}

      {summary && (
        <section aria-labelledby={`${anchorPrefix}-warnings`} data-testid="tax-warnings">
          <Title order={headingOrder} id={`${anchorPrefix}-warnings`} mb="xs">
            {t('warnings')}{' '}
            {warnings.length > 0 && (
              <Badge color="orange.6" c="black" autoContrast={false}>
                {t('warningsCount', { count: warnings.length })}
              </Badge>
            )}
          </Title>
          {warnings.length === 0 ? (
            <Text c="gray.7">{t('noWarnings')}</Text>
          ) : (
            <Box component="ul" m={0} p={0} style={{ listStyle: 'none', display: 'grid', gap: 'var(--mantine-spacing-xs)' }}>
              {warnings.map((warning, index) => (
                <WarningItem key={index} warning={warning} anchorPrefix={anchorPrefix} onGo={goTo} />
              ))}
            </Box>
          )}
          {summary.warningsTruncated !== undefined && summary.warningsTruncated > 0 && (
            <Text size="sm" c="gray.7" mt="xs">
              {t('warningsTruncated', { count: summary.warningsTruncated })}
            </Text>
          )}
        </section>
      )}

      <section aria-labelledby={`${anchorPrefix}-lines`}>
        <Title order={headingOrder} id={`${anchorPrefix}-lines`} mb="xs">
          {t('lines')}
        </Title>
        {products.length === 0 ? (
          <Text c="gray.7">{t('noLines')}</Text>
        ) : (
          <Stack gap="md">
            {products.slice(0, shown).map((line, index) => (
              <LineSection
                key={index}
                line={line}
                index={index}
                anchorPrefix={anchorPrefix}
                headingOrder={sub}
                highlighted={highlighted}
                warnedIds={warnedIds}
              />
            ))}
            {products.length > shown && (
              <Group gap="sm">
                <Text size="sm" c="gray.7">
                  {t('shownOf', { shown, total: products.length })}
                </Text>
                <Button variant="light" onClick={() => setShown(shown + LINES_PER_STEP)}>
                  {t('showMore', { count: Math.min(LINES_PER_STEP, products.length - shown) })}
                </Button>
              </Group>
            )}
          </Stack>
        )}
      </section>
    </Stack>
  );
}

function WarningItem({
  warning,
  anchorPrefix,
  onGo,
}: {
  warning: TaxWarning;
  anchorPrefix: string;
  onGo: (target: WarningTarget) => void;
}) {
  const { t, i18n } = useTranslation('taxBreakdown');
  const target = warningTarget(warning.path);
  // A code this console does not know yet (a newer engine) shows the service's sentence alone.
  const explanationKey = `warningText.${warning.code}`;
  const explanation = i18n.exists(explanationKey, { ns: 'taxBreakdown' }) ? t(explanationKey) : undefined;
  const label =
    target === undefined
      ? t('wholeOrder')
      : target.group === undefined
        ? t('goToLine', { line: target.line + 1 })
        : t('goToModifier', {
            line: target.line + 1,
            modifier: t('modifierLabel', { group: target.group + 1, index: target.modifier! + 1 }),
          });
  return (
    <Box component="li" data-testid="tax-warning" style={{ minWidth: 0 }}>
      <Group gap="xs" wrap="wrap" align="baseline">
        <Badge color="red.9" variant="outline" style={{ textTransform: 'none', minWidth: 'max-content' }}>
          {warning.code}
        </Badge>
        {explanation ? (
          <Box style={{ minWidth: 0 }}>
            <Text size="sm">{explanation}</Text>
            {/* The service writes its sentences in English: marked so, for screen readers in a pt-BR page. */}
            <Text size="xs" c="gray.7" lang="en" title={t('apiDetail')}>
              {warning.message}
            </Text>
          </Box>
        ) : (
          <Text size="sm">{warning.message}</Text>
        )}
        {target ? (
          <Anchor
            href={`#${anchorId(anchorPrefix, target)}`}
            size="sm"
            onClick={(event) => {
              event.preventDefault();
              onGo(target);
            }}
          >
            {label}
          </Anchor>
        ) : (
          <Text size="sm" c="gray.7">
            {label}
          </Text>
        )}
        <Code style={{ overflowWrap: 'anywhere' }}>{warning.path}</Code>
      </Group>
    </Box>
  );
}

function LineSection({
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
  facts.push([t('lineAmount'), formatMoney(lineAmount(item))]);
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

interface TaxRow {
  key: string;
  name: string;
  cst?: string;
  base?: number;
  baseNote?: string;
  rate?: number;
  value?: number;
  zeroReason?: string;
  informative?: boolean;
}

function LineTaxTable({ tax, label }: { tax: LineTax; label: string }) {
  const { t } = useTranslation('taxBreakdown');
  const zero = (kind: string) => {
    const reason = tax.zeroReasons?.[kind];
    if (!reason) return undefined;
    if (reason === 'SIMPLES_NACIONAL') return t('zeroReason.SIMPLES_NACIONAL');
    const match = /^(CST|CSOSN)_(.+)$/.exec(reason);
    return match ? t('zeroReason.code', { kind: match[1], code: match[2] }) : reason;
  };
  const rows: TaxRow[] = [
    {
      key: 'ICMS',
      name: t('taxes.ICMS'),
      cst: tax.CST_ICMS,
      base: tax.ICMS_base,
      baseNote: tax.ICMS_base_reduction !== undefined ? t('baseReduction', { rate: formatRate(tax.ICMS_base_reduction) }) : undefined,
      rate: tax.ICMS_rate,
      value: tax.ICMS_value,
      zeroReason: zero('ICMS'),
    },
  ];
  if (tax.FCP_rate !== undefined)
    rows.push({ key: 'FCP', name: t('taxes.FCP'), base: tax.FCP_base, rate: tax.FCP_rate, value: tax.FCP_value, zeroReason: zero('FCP') });
  rows.push(
    {
      key: 'PIS',
      name: t('taxes.PIS'),
      cst: tax.CST_PIS,
      base: tax.PIS_base,
      rate: tax.PIS_rate,
      value: tax.PIS_value,
      zeroReason: zero('PIS'),
    },
    {
      key: 'COFINS',
      name: t('taxes.COFINS'),
      cst: tax.CST_COFINS,
      base: tax.COFINS_base,
      rate: tax.COFINS_rate,
      value: tax.COFINS_value,
      zeroReason: zero('COFINS'),
    },
  );
  const reform =
    tax.IBSCBS_base !== undefined || tax.CBS_rate !== undefined || tax.IBS_UF_rate !== undefined || tax.IBS_Mun_rate !== undefined;
  if (reform) {
    const common = { cst: tax.CST_IBSCBS, base: tax.IBSCBS_base, informative: true };
    rows.push(
      { key: 'IBS_UF', name: t('taxes.IBS_UF'), ...common, rate: tax.IBS_UF_rate, value: tax.IBS_UF_value },
      { key: 'IBS_Mun', name: t('taxes.IBS_Mun'), ...common, rate: tax.IBS_Mun_rate, value: tax.IBS_Mun_value },
      { key: 'CBS', name: t('taxes.CBS'), ...common, rate: tax.CBS_rate, value: tax.CBS_value },
    );
  }
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
              {row.name}
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
              {row.baseNote && (
                <Text span size="xs" c="gray.7" display="block">
                  {row.baseNote}
                </Text>
              )}
            </Table.Td>
            <Table.Td ta="right" data-field="rate">
              {formatRate(row.rate)}
            </Table.Td>
            <Table.Td ta="right" data-field="value">
              {formatMoney(row.value)}
            </Table.Td>
            <Table.Td>{row.zeroReason ?? '—'}</Table.Td>
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

function TotalsTable({ totals, label }: { totals: TaxTotals; label: string }) {
  const { t } = useTranslation('taxBreakdown');
  const rows: [string, string, number | undefined][] = [
    ['base', t('base'), totals.base],
    ['ICMS', t('taxes.ICMS'), totals.ICMS_value],
  ];
  if (totals.FCP_value !== undefined) rows.push(['FCP', t('taxes.FCP'), totals.FCP_value]);
  rows.push(['PIS', t('taxes.PIS'), totals.PIS_value], ['COFINS', t('taxes.COFINS'), totals.COFINS_value]);
  const reform: [string, string, number | undefined][] = [];
  if (totals.IBSCBS_base !== undefined) reform.push(['IBSCBS_base', t('taxes.IBSCBS_base'), totals.IBSCBS_base]);
  if (totals.IBS_UF_value !== undefined) reform.push(['IBS_UF', t('taxes.IBS_UF'), totals.IBS_UF_value]);
  if (totals.IBS_Mun_value !== undefined) reform.push(['IBS_Mun', t('taxes.IBS_Mun'), totals.IBS_Mun_value]);
  if (totals.CBS_value !== undefined) reform.push(['CBS', t('taxes.CBS'), totals.CBS_value]);
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
          {rows.map(([key, name, value]) => (
            <Table.Tr key={key} data-tax={key}>
              <Table.Th scope="row" fw={500}>
                {name}
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
          {reform.map(([key, name, value]) => (
            <Table.Tr key={key} data-tax={key}>
              <Table.Th scope="row" fw={500}>
                {name}
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
