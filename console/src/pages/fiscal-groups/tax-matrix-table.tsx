import { Button, CloseButton, Group, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { newUid, RULE_FIELDS, unsavedCells, type MatrixRow, type RuleField, type TaxRule } from './matrix-model';

/** A cell changed since the last save: tinted and outlined, so that what Save would send stands out. */
const UNSAVED_INPUT = { backgroundColor: 'var(--mantine-color-yellow-0)', borderColor: 'var(--mantine-color-yellow-8)' };

interface Props {
  rows: MatrixRow[];
  onChange: (rows: MatrixRow[]) => void;
  /** NCM key (as saved) → field → problems from the API. */
  problems: Record<string, Record<string, string[]>>;
  duplicates: string[];
  /** The matrix as saved, to mark the cells that differ from it; none are marked for a group not created yet. */
  saved?: Record<string, TaxRule>;
}

/** The tax matrix as an editable table: one row per NCM, one labelled input per rule field. */
export function TaxMatrixTable({ rows, onChange, problems, duplicates, saved }: Props) {
  const { t } = useTranslation('fiscalGroups');
  const unsaved = useMemo(() => (saved ? unsavedCells(rows, saved) : new Map<string, Set<string>>()), [rows, saved]);
  const unsavedCount = [...unsaved.values()].reduce((sum, fields) => sum + fields.size, 0);
  /** The props that mark a cell changed since the last save (`data-unsaved` names it for tests and styles). */
  const markOf = (row: MatrixRow, field: string) =>
    unsaved.get(row.uid)?.has(field) ? { 'data-unsaved': 'true', styles: { input: UNSAVED_INPUT } } : {};

  const update = (uid: string, change: (row: MatrixRow) => MatrixRow) => onChange(rows.map((row) => (row.uid === uid ? change(row) : row)));
  const fieldLabel = (field: RuleField | 'NCM', row: MatrixRow, index: number) =>
    row.ncm.trim()
      ? t('edit.cellLabel', { field: t(`fields.${field}`), ncm: row.ncm.trim() })
      : t('edit.cellLabelNew', { field: t(`fields.${field}`), n: index + 1 });
  const errorOf = (row: MatrixRow, field: string): string | undefined => {
    const list = [...(problems[row.ncm.trim()]?.[field] ?? [])];
    if (field === 'NCM' && duplicates.includes(row.ncm.trim())) list.push(t('edit.duplicateNcm', { ncm: row.ncm.trim() }));
    return list.length ? list.join('; ') : undefined;
  };
  const minWidth = 120 + RULE_FIELDS.reduce((sum, field) => sum + field.width, 0) + 50;

  return (
    <>
      {rows.length === 0 ? (
        <Text c="gray.7">{t('edit.matrixEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={minWidth} type="native" style={{ position: 'relative' }}>
          <Table verticalSpacing={4} horizontalSpacing={4} aria-label={t('edit.matrixTable')} style={{ tableLayout: 'fixed' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th style={{ width: 120 }}>
                  <Text size="xs" fw={700}>
                    {t('fields.NCM')}
                  </Text>
                </Table.Th>
                {RULE_FIELDS.map((field) => (
                  <Table.Th key={field.name} style={{ width: field.width }}>
                    <Text size="xs" fw={700}>
                      {t(`fields.${field.name}`)}
                    </Text>
                  </Table.Th>
                ))}
                <Table.Th style={{ width: 50 }}>
                  <VisuallyHidden>{t('list.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, index) => (
                <Table.Tr key={row.uid}>
                  <Table.Td style={{ verticalAlign: 'top' }}>
                    <TextInput
                      size="xs"
                      aria-label={t('edit.cellLabelNew', { field: t('fields.NCM'), n: index + 1 })}
                      value={row.ncm}
                      inputMode="numeric"
                      error={errorOf(row, 'NCM')}
                      {...markOf(row, 'NCM')}
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        update(row.uid, (r) => ({ ...r, ncm: value }));
                      }}
                    />
                  </Table.Td>
                  {RULE_FIELDS.map((field) => (
                    <Table.Td key={field.name} style={{ verticalAlign: 'top' }}>
                      <TextInput
                        size="xs"
                        aria-label={fieldLabel(field.name, row, index)}
                        value={row.cells[field.name] ?? ''}
                        inputMode={field.rate ? 'decimal' : 'numeric'}
                        error={errorOf(row, field.name)}
                        {...markOf(row, field.name)}
                        onChange={(event) => {
                          const value = event.currentTarget.value;
                          update(row.uid, (r) => ({ ...r, cells: { ...r.cells, [field.name]: value } }));
                        }}
                      />
                    </Table.Td>
                  ))}
                  <Table.Td style={{ verticalAlign: 'top' }}>
                    <CloseButton
                      aria-label={t('edit.removeRow', { ncm: row.ncm.trim() || t('edit.rowName', { n: index + 1 }) })}
                      onClick={() => onChange(rows.filter((r) => r.uid !== row.uid))}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {unsavedCount > 0 && (
        <Text size="sm" mt="xs" data-testid="matrix-unsaved">
          {t('edit.unsavedCells', { count: unsavedCount })}
        </Text>
      )}
      <Group mt="sm">
        <Button variant="light" onClick={() => onChange([...rows, { uid: newUid(), ncm: '', cells: {} }])}>
          {t('edit.addRow')}
        </Button>
      </Group>
    </>
  );
}
