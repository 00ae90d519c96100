import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordTable } from '../../common/display';
import { StateBadge } from '../../common/state-badge';
import {
  GROUP_FIELDS,
  isEmptyDiff,
  type DiffValue,
  type RevisionDiff,
  type RuleChange,
  type StoreChange,
  type ValueChange,
} from './revision-diff';
import { RULE_FIELDS } from './matrix-model';
import { DELIVERY_FEE_ON_INVOICE } from './group-form';

const KIND_TONES = { added: 'on', removed: 'warn', changed: 'off', renamed: 'off' } as const;

/** One matrix cell change, a row each: the NCM's change kind repeated so that every row reads alone. */
interface CellRow {
  ncm: string;
  kind: RuleChange['kind'];
  change: ValueChange;
}

/** A readable diff of two revisions: the group's fields, its settings, its stores and the matrix cells, each `before → after`. */
/** A setting's option is a code of the service: said by its label (the editor's). */
const isDeliveryFeeOption = (raw: DiffValue): raw is (typeof DELIVERY_FEE_ON_INVOICE)[number] =>
  typeof raw === 'string' && (DELIVERY_FEE_ON_INVOICE as readonly string[]).includes(raw);

export function RevisionDiffView({ diff }: { diff: RevisionDiff }) {
  const { t } = useTranslation('fiscalGroups');
  const value = (raw: DiffValue) =>
    raw === undefined || raw === null || raw === ''
      ? '—'
      : raw === true
        ? t('revisions.yes')
        : raw === false
          ? t('revisions.no')
          : isDeliveryFeeOption(raw)
            ? t(`edit.deliveryFeeOptions.${raw}`)
            : String(raw);
  const fieldName = (field: string) =>
    (GROUP_FIELDS as readonly string[]).includes(field) ? t(`revisions.groupFields.${field as (typeof GROUP_FIELDS)[number]}`) : field;
  const ruleFieldName = (field: string) => {
    const known = RULE_FIELDS.find((rule) => rule.name === field);
    return known ? `${t(`fields.${known.name}`)} (${field})` : field;
  };
  const kind = (k: keyof typeof KIND_TONES) => <StateBadge tone={KIND_TONES[k]}>{t(`revisions.changeKinds.${k}`)}</StateBadge>;
  if (isEmptyDiff(diff)) return <Text data-testid="revision-diff">{t('revisions.noDifference')}</Text>;
  const cells: CellRow[] = diff.matrix.flatMap((rule) => rule.cells.map((change) => ({ ncm: rule.ncm, kind: rule.kind, change })));
  const beforeAfter = (label: (change: ValueChange) => string, section: string) => ({
    label: t('revisions.diffTable', { section }),
    columns: [
      { header: t('revisions.field'), cell: (change: ValueChange) => label(change) },
      { header: t('revisions.before'), cell: (change: ValueChange) => value(change.before) },
      { header: t('revisions.after'), cell: (change: ValueChange) => value(change.after) },
    ],
  });
  const fields = beforeAfter((change) => fieldName(change.field), t('revisions.fields'));
  const settings = beforeAfter((change) => change.field, t('revisions.settings'));
  return (
    <Stack gap="md" data-testid="revision-diff">
      {diff.fields.length > 0 && (
        <Section title={t('revisions.fields')}>
          <RecordTable records={diff.fields} columns={fields.columns} label={fields.label} empty="" minWidth={360} />
        </Section>
      )}
      {diff.settings.length > 0 && (
        <Section title={t('revisions.settings')}>
          <RecordTable records={diff.settings} columns={settings.columns} label={settings.label} empty="" minWidth={360} />
        </Section>
      )}
      {diff.stores.length > 0 && (
        <Section title={t('revisions.stores')}>
          <RecordTable<StoreChange>
            records={diff.stores}
            label={t('revisions.diffTable', { section: t('revisions.stores') })}
            empty=""
            minWidth={360}
            columns={[
              { header: t('revisions.store'), cell: (store) => store.storeId },
              { header: t('revisions.change'), cell: (store) => kind(store.kind) },
              { header: t('revisions.before'), cell: (store) => (store.kind === 'added' ? '—' : value(store.nameBefore)) },
              { header: t('revisions.after'), cell: (store) => (store.kind === 'removed' ? '—' : value(store.nameAfter)) },
            ]}
          />
        </Section>
      )}
      {cells.length > 0 && (
        <Section title={t('revisions.matrix')}>
          <RecordTable<CellRow>
            records={cells}
            label={t('revisions.diffTable', { section: t('revisions.matrix') })}
            empty=""
            minWidth={520}
            columns={[
              { header: t('revisions.ncm'), cell: (row) => row.ncm },
              { header: t('revisions.change'), cell: (row) => kind(row.kind) },
              { header: t('revisions.field'), cell: (row) => ruleFieldName(row.change.field) },
              { header: t('revisions.before'), cell: (row) => value(row.change.before) },
              { header: t('revisions.after'), cell: (row) => value(row.change.after) },
            ]}
          />
        </Section>
      )}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
