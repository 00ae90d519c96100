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
