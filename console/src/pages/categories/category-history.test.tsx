import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { CategoryHistory } from './category-history';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const PRODUCT = 'prod-cola-350';
const ana = { type: 'user', id: 'u-1', name: 'Ana Souza' };
const fields = (ncm: string, externalProductId: string | null = 'SKU-1') => ({ productName: 'Coca-Cola lata', ncm, externalProductId });
// Newest first, as the API answers. Times are UTC; the tests run in São Paulo (UTC-3).
const items = [
  { productId: PRODUCT, kind: 'delete', at: '2026-11-21T15:00:00.000Z', actor: ana, before: fields('22011000', null), after: null },
  {
    productId: PRODUCT,
    kind: 'update',
    at: '2026-11-21T14:00:00.000Z',
    actor: ana,
    before: fields('22029900'),
    after: fields('22011000', null),
  },
  {
    productId: PRODUCT,
    kind: 'update',
    at: '2026-11-21T13:00:00.000Z',
    actor: null,
    before: fields('22021000'),
    after: fields('22029900'),
  },
  { productId: PRODUCT, kind: 'create', at: '2026-11-21T12:00:00.000Z', actor: ana, before: null, after: fields('22021000') },
];
const page = (overrides: Record<string, unknown> = {}) => ({ items, total: 4, page: 1, pageSize: 20, totalPages: 1, ...overrides });
const HISTORY = `GET /api/admin/product-fiscal-categories/${PRODUCT}/history`;

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('fiscal'));
});
afterEach(async () => {
  await i18next.changeLanguage('en');
});

const entries = async () => {
  await screen.findByRole('list', { name: `Changes of ${PRODUCT}, newest first` });
  return screen.getAllByTestId('category-history-entry').map((entry) => entry.textContent);
};

describe('a category’s history', { timeout: 30_000 }, () => {
  it('lists each change newest first with its time, actor and NCM before → after', async () => {
    answer(fetchMock, { [HISTORY]: json(200, page()) });
    renderPage(<CategoryHistory productId={PRODUCT} />);
    const shown = await entries();
    expect(shown).toHaveLength(4);
    expect(shown[0]).toMatch(/^Deleted · 11\/21\/2026, 12:00:00 PM.* · Ana Souza/);
    expect(shown[0]).toContain('NCM: 22011000 → none');
    expect(shown[1]).toContain('NCM: 22029900 → 22011000');
    expect(shown[1]).toContain('External product id: SKU-1 → none');
    expect(shown[2]).toMatch(/^Changed · 11\/21\/2026, 10:00:00 AM.* · no actor/);
    expect(shown[2]).toContain('NCM: 22021000 → 22029900');
    expect(shown[2]).not.toContain('External product id');
    expect(shown[3]).toMatch(/^Created · 11\/21\/2026, 09:00:00 AM.* · Ana Souza/);
    expect(shown[3]).toContain('NCM: none → 22021000');
    const request = requestsOf(fetchMock)[0]!;
    expect(new URL(request.url).searchParams.get('page')).toBe('1');
  });

  it('speaks the reader’s language: pt-BR words and date', async () => {
    await i18next.changeLanguage('pt-BR');
    answer(fetchMock, { [HISTORY]: json(200, page()) });
    renderPage(<CategoryHistory productId={PRODUCT} />);
    await screen.findByRole('list', { name: `Alterações de ${PRODUCT}, mais recentes primeiro` });
    const second = screen.getAllByTestId('category-history-entry')[1]!;
    expect(second.textContent).toMatch(/^Alterada · 21\/11\/2026, 11:00:00.* · Ana Souza/);
    expect(within(second).getByText('Id externo do produto: SKU-1 → nenhum')).toBeInTheDocument();
  });

  it('goes to the next page', async () => {
    answer(fetchMock, {
      [HISTORY]: (request: Request) =>
        new URL(request.url).searchParams.get('page') === '2'
          ? json(200, page({ items: items.slice(3), page: 2, pageSize: 3, totalPages: 2 }))
          : json(200, page({ items: items.slice(0, 3), pageSize: 3, totalPages: 2 })),
    });
    renderPage(<CategoryHistory productId={PRODUCT} />);
    expect(await entries()).toHaveLength(3);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: /next/i }));
    await screen.findByText(/^Created ·/);
    expect(screen.getAllByTestId('category-history-entry')).toHaveLength(1);
  });

  it('says when nothing was recorded, and shows a failure', async () => {
    answer(fetchMock, { [HISTORY]: json(200, page({ items: [], total: 0, totalPages: 0 })) });
    const { unmount } = renderPage(<CategoryHistory productId={PRODUCT} />);
    await screen.findByText('No change recorded.');
    unmount();
    answer(fetchMock, { [HISTORY]: json(500, { error: 'INTERNAL_ERROR', message: 'boom' }) });
    renderPage(<CategoryHistory productId={PRODUCT} />);
    await screen.findByRole('button', { name: /retry|try again/i });
  });
});
