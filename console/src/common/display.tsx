import { Box, Table, Text, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A labelled table that scrolls sideways inside its own focusable region (nothing cut off at 390 px). */
export function ScrollTable({
  label,
  minWidth,
  children,
  ...tableProps
}: { label: string; minWidth: number; children: ReactNode } & TableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0} role="region" aria-label={label}>
      <Table aria-label={label} withTableBorder {...tableProps}>
        {children}
      </Table>
    </Table.ScrollContainer>
  );
}

/** One column of a `RecordTable`: its header and how a record fills its cell. */
export interface RecordColumn<T> {
  header: string;
  cell: (record: T, index: number) => ReactNode;
}

/** Records of one kind, a row each, described by their columns; `empty` stands in for no records. */
export function RecordTable<T>({
  records,
  columns,
  label,
  empty,
  minWidth,
}: {
  records: readonly T[];
  columns: RecordColumn<T>[];
  label: string;
  empty: string;
  minWidth: number;
}) {
  if (records.length === 0) return <Text c="gray.7">{empty}</Text>;
  return (
    <ScrollTable striped verticalSpacing="xs" label={label} minWidth={minWidth}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} scope="col">
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {records.map((record, index) => (
          <Table.Tr key={index}>
            {columns.map((column) => (
              <Table.Td key={column.header}>{column.cell(record, index)}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ScrollTable>
  );
}

/** Label/value pairs as a description list, wrapping onto as many columns (at least `minColumn` wide) as fit. */
export function Facts({ items, minColumn = '9.5rem' }: { items: [string, ReactNode][]; minColumn?: string }) {
  return (
    <Box
      component="dl"
      m={0}
      style={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${minColumn}, 1fr))`, gap: '4px var(--mantine-spacing-md)' }}
    >
      {items.map(([label, value]) => (
        <div key={label} style={{ minWidth: 0 }}>
          <Text component="dt" size="xs" c="gray.7">
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </Box>
  );
}
