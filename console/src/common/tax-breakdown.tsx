import { Anchor, Badge, Box, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../api/client';
import { Facts } from './display';
import { formatDateTime } from './format';
import {
  anchorId,
  chargedBasesOf,
  LINES_PER_STEP,
  linesToShow,
  targetOfFragment,
  warningTarget,
  type WarningTarget,
} from './tax-breakdown-model';
import { LineSection } from './tax-line-section';
import { OutsideInvoice } from './tax-outside-invoice';
import { taxBreakdownMessages } from './tax-breakdown-messages';
import { TotalsTable } from './tax-tables';
import { isObj } from './values';

export type EnrichedOrderPayload = components['schemas']['EnrichedOrderPayloadDto'];
type TaxWarning = components['schemas']['TaxWarningDto'];
type HeadingOrder = 2 | 3 | 4;

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
          <TotalsTable totals={summary.totals} label={t('totalsTable')} bases={chargedBasesOf(products)} />
        </section>
      )}

      {summary && <OutsideInvoice summary={summary} anchorPrefix={anchorPrefix} headingOrder={headingOrder} />}

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

type ExplainedCode = keyof (typeof taxBreakdownMessages)['en']['warningText'];
const isExplainedCode = (code: string): code is ExplainedCode => Object.hasOwn(taxBreakdownMessages.en.warningText, code);

function WarningItem({
  warning,
  anchorPrefix,
  onGo,
}: {
  warning: TaxWarning;
  anchorPrefix: string;
  onGo: (target: WarningTarget) => void;
}) {
  const { t } = useTranslation('taxBreakdown');
  const target = warningTarget(warning.path);
  // A code this console does not know yet (a newer engine) shows the service's sentence alone.
  const explanation = isExplainedCode(warning.code) ? t(`warningText.${warning.code}`) : undefined;
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
