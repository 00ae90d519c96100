import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInConsole } from '../testing/render';
import { RecordTable, type RecordColumn } from './display';

interface Dispatch {
  transaction: string;
  client: string | null;
}

const columns: RecordColumn<Dispatch>[] = [
  { header: 'Transaction', cell: (record) => record.transaction },
  { header: 'Client', cell: (record) => record.client ?? '—' },
  { header: 'Row', cell: (_record, index) => `#${index + 1}` },
];

describe('RecordTable', () => {
  it('draws a header per column and a row per record, each cell filled by its column', () => {
    const records = [
      { transaction: 'TX-1', client: '1001' },
      { transaction: 'TX-2', client: null },
    ];
    renderInConsole(<RecordTable records={records} columns={columns} label="Dispatches" empty="No dispatch" minWidth={400} />);

    const table = screen.getByRole('table', { name: 'Dispatches' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Transaction', 'Client', 'Row']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['TX-1', '1001', '#1'],
      ['TX-2', '—', '#2'],
    ]);
  });

  it('shows the empty text, and no table, when there are no records', () => {
    renderInConsole(<RecordTable records={[]} columns={columns} label="Dispatches" empty="No dispatch" minWidth={400} />);

    expect(screen.getByText('No dispatch')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
