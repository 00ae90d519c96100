import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { GroupEditor } from './group-editor';

// The API client takes `fetch` when it is created, on import: the stub is in place before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderNewGroup(storeId = 'loja-1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // Mantine's test environment: no transitions and no portals, so the regime's options are in the page at once.
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[`/fiscal-groups/new?storeId=${storeId}`]}>
          <GroupEditor />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
});

// Typing into a whole form is slow in jsdom on a shared machine: more than vitest's default 5 s.
describe('the fiscal group editor', { timeout: 30_000 }, () => {
  it('says at each field what is missing, and sends nothing', async () => {
    renderNewGroup();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription('Required');
    expect(screen.getByRole('combobox', { name: /^State \(UF\)/ })).toHaveAccessibleDescription('Choose a state');
    expect(fetchMock).not.toHaveBeenCalled();
    // Typing clears the field's problem.
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'G');
    expect(screen.getByRole('textbox', { name: /^Name/ })).not.toHaveAccessibleDescription('Required');
  });

  it('offers the known regimes, found by CRT code, and takes any other text', async () => {
    renderNewGroup();
    const user = userEvent.setup({ delay: null });
    const regime = screen.getByRole('combobox', { name: 'Tax regime' });
    await user.type(regime, 'crt 4');
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'MEICRT 4 · MEI, taxed as Simples Nacional',
      '4CRT 4 · MEI, taxed as Simples Nacional',
    ]);
    await user.click(options[0]!);
    expect(regime).toHaveValue('MEI');
    expect(regime).toHaveAccessibleDescription('CRT 4 · MEI, taxed as Simples Nacional');

    await user.clear(regime);
    await user.type(regime, 'REGIME_DO_ERP');
    await user.keyboard('{Escape}');
    expect(regime).toHaveValue('REGIME_DO_ERP');
  });

  it("sends the group as the API takes it, and shows the API's problems at the fields they name", async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, { statusCode: 400, message: 'Validation failed', details: [{ field: 'name', problem: 'name is too long' }] }),
    );
    renderNewGroup('loja-7');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Restaurants');
    await user.selectOptions(screen.getByRole('combobox', { name: /^State \(UF\)/ }), 'SP');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Validation failed');
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription('name is too long');
    const request = fetchMock.mock.calls[0]![0] as Request;
    await expect(request.json()).resolves.toEqual({
      name: 'Restaurants',
      uf: 'SP',
      stores: [{ store_id: 'loja-7', store_name: '' }],
      taxMatrix: {},
      settings: {
        includeIcmsInPisCofinsBase: false,
        platformDiscountsReduceBase: false,
        deliveryFeeOnInvoice: 'WHEN_MERCHANT_DELIVERS',
        serviceChargeInIcmsBase: false,
      },
    });
  });

  it('offers each invoice setting with the sentence on when to change it, sends what was chosen, and shows its API problem', async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, {
        statusCode: 400,
        message: 'Validation failed',
        details: [{ field: 'settings.deliveryFeeOnInvoice', problem: 'must be one of WHEN_MERCHANT_DELIVERS, ALWAYS, NEVER' }],
      }),
    );
    renderNewGroup('loja-8');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Delivery');
    await user.selectOptions(screen.getByRole('combobox', { name: /^State \(UF\)/ }), 'RJ');

    const platformDiscounts = screen.getByRole('checkbox', { name: 'Discounts paid by the platform reduce the bases' });
    expect(platformDiscounts).not.toBeChecked();
    expect(platformDiscounts).toHaveAccessibleDescription(/turn it on only when the store’s tax advice/);
    const deliveryFee = screen.getByRole('combobox', { name: 'Delivery fee on the invoice' });
    expect(deliveryFee).toHaveValue('WHEN_MERCHANT_DELIVERS');
    expect(deliveryFee).toHaveAccessibleDescription(/^Change it when the store bills delivery differently/);
    expect(
      within(deliveryFee)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['When the store delivers (default)', 'Always', 'Never']);
    const serviceCharge = screen.getByRole('checkbox', { name: 'Service charge of up to 10 % in the ICMS base' });
    expect(serviceCharge).toHaveAccessibleDescription(/did not adopt Convênio ICMS 125\/11/);

    await user.click(platformDiscounts);
    await user.selectOptions(deliveryFee, 'NEVER');
    await user.click(serviceCharge);
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Validation failed');
    expect(screen.getByRole('combobox', { name: 'Delivery fee on the invoice' })).toHaveAccessibleDescription(
      /must be one of WHEN_MERCHANT_DELIVERS, ALWAYS, NEVER/,
    );
    const request = fetchMock.mock.calls[0]![0] as Request;
    await expect(request.json()).resolves.toMatchObject({
      settings: {
        includeIcmsInPisCofinsBase: false,
        platformDiscountsReduceBase: true,
        deliveryFeeOnInvoice: 'NEVER',
        serviceChargeInIcmsBase: true,
      },
    });
  });
});
