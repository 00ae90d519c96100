import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CsvPanel } from './csv-panel';

// The API client takes `fetch` when it is created, on import: the stub is in place before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

beforeEach(() => {
  fetchMock.mockReset();
});

describe('the CSV panel', () => {
  it("lists a refused file's problems by the line and column the API gives as fields", async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({
          error: 'VALIDATION_FAILED',
          message: 'The CSV has 2 problem(s); nothing was changed.',
          // `field` deliberately disagrees with the typed fields: the panel must read `line` and `column`.
          details: [
            { field: 'line 9 CFOP', problem: 'must be a number from 0 to 100', line: 3, column: 'ICMS_rate' },
            { field: 'line 8', problem: 'has 4 cells, the header has 8', line: 5 },
          ],
        }),
        { status: 400, headers: { 'content-type': 'application/json' } },
      ),
    );
    render(
      <MantineProvider env="test">
        <CsvPanel groupId="0b7e7a36-5c1e-4f4e-9d43-8f0f6a3b2a10" onImported={() => undefined} />
      </MantineProvider>,
    );
    const user = userEvent.setup({ delay: null });
    await user.upload(screen.getByLabelText('Choose a CSV file to import'), new File(['NCM\n1'], 'bad.csv', { type: 'text/csv' }));

    const items = within(await screen.findByTestId('csv-errors')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Line 3: ICMS_rate: must be a number from 0 to 100',
      'Line 5: has 4 cells, the header has 8',
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
