import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInConsole } from '../../testing/render';
import { duplicateNcms, matrixFromRows, rowsFromMatrix, type MatrixRow, type TaxRule } from './matrix-model';
import { TaxMatrixTable } from './tax-matrix-table';

const beer = {
  NCM: '22030000',
  CEST: '0302100',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 1.65,
  CST_COFINS: '01',
  COFINS_rate: 7.6,
} as TaxRule;

/** The table as the group editor holds it: the rows in state, the duplicates derived from them. */
function renderMatrix(initial: Record<string, TaxRule>, problems: Record<string, Record<string, string[]>> = {}) {
  const state: { rows: MatrixRow[] } = { rows: rowsFromMatrix(initial) };
  function Editor() {
    const [rows, setRows] = useState(state.rows);
    const change = (next: MatrixRow[]) => {
      state.rows = next;
      setRows(next);
    };
    return <TaxMatrixTable rows={rows} onChange={change} problems={problems} duplicates={duplicateNcms(rows)} />;
  }
  renderInConsole(<Editor />);
  return { matrix: () => matrixFromRows(state.rows) };
}

describe('TaxMatrixTable', () => {
  it('shows each rule as a row of labelled inputs, one per field', () => {
    renderMatrix({ '22030000': beer });

    const table = screen.getByRole('table', { name: 'Tax matrix rules' });
    expect(within(table).getByRole('textbox', { name: 'NCM for new row 1' })).toHaveValue('22030000');
    expect(within(table).getByRole('textbox', { name: 'ICMS rate for NCM 22030000' })).toHaveValue('18');
    expect(within(table).getByRole('textbox', { name: 'PIS rate for NCM 22030000' })).toHaveValue('1.65');
    expect(within(table).getByRole('textbox', { name: 'CEST for NCM 22030000' })).toHaveValue('0302100');
    expect(within(table).getByRole('textbox', { name: 'FCP rate for NCM 22030000' })).toHaveValue('');
    // NCM and the 15 rule fields.
    expect(within(table).getAllByRole('textbox')).toHaveLength(17);
  });

  it('changes the cell typed in, reading a decimal comma as the rate', async () => {
    const user = userEvent.setup();
    const { matrix } = renderMatrix({ '22030000': beer });

    const pis = screen.getByRole('textbox', { name: 'PIS rate for NCM 22030000' });
    await user.clear(pis);
    await user.type(pis, '0,65');

    expect(pis).toHaveValue('0,65');
    expect(matrix()['22030000']).toEqual({ ...beer, PIS_rate: 0.65 });
  });

  it('adds a new row named by its position until it has an NCM, and removes a row', async () => {
    const user = userEvent.setup();
    const { matrix } = renderMatrix({ '22030000': beer });

    await user.click(screen.getByRole('button', { name: 'Add NCM row' }));
    expect(screen.getByRole('textbox', { name: 'ICMS rate for new row 2' })).toHaveValue('');
    await user.type(screen.getByRole('textbox', { name: 'NCM for new row 2' }), '2106');
    await user.type(screen.getByRole('textbox', { name: 'ICMS rate for NCM 2106' }), '12');
    // An empty CEST is sent as ""; the other empty cells are left out.
    expect(matrix()).toEqual({ '22030000': beer, '2106': { NCM: '2106', CEST: '', ICMS_rate: 12 } });

    await user.click(screen.getByRole('button', { name: 'Remove NCM 22030000' }));

    expect(screen.queryByRole('textbox', { name: /for NCM 22030000$/ })).not.toBeInTheDocument();
    expect(Object.keys(matrix())).toEqual(['2106']);
  });

  it("shows the API's problem on the cell it names, and an NCM typed twice on both rows", async () => {
    const user = userEvent.setup();
    renderMatrix(
      { '22030000': beer, '2106': { ...beer, NCM: '2106' } },
      { '22030000': { ICMS_rate: ['ICMS_rate must not be greater than 100'] } },
    );

    const icms = screen.getByRole('textbox', { name: 'ICMS rate for NCM 22030000' });
    expect(icms).toBeInvalid();
    expect(icms).toHaveAccessibleDescription('ICMS_rate must not be greater than 100');
    expect(screen.getByRole('textbox', { name: 'PIS rate for NCM 22030000' })).toBeValid();

    // Rows are sorted by NCM: "2106" is row 1, "22030000" row 2.
    const second = screen.getByRole('textbox', { name: 'NCM for new row 1' });
    await user.clear(second);
    await user.type(second, '22030000');

    for (const n of [1, 2]) {
      expect(screen.getByRole('textbox', { name: `NCM for new row ${n}` })).toHaveAccessibleDescription(
        'NCM 22030000 is in more than one row',
      );
    }
  });

  it('says when the matrix has no rule yet', () => {
    renderMatrix({});

    expect(screen.getByText('No NCM rule yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add NCM row' })).toBeInTheDocument();
  });
});
