import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import type { FiscalGroup } from './matrix-model';
import { ScheduledBanner } from './scheduled-banner';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const GROUP_ID = '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e';
const group = {
  id: GROUP_ID,
  name: 'Restaurants SP',
  uf: 'SP',
  externalId: null,
  taxRegime: null,
  stores: [],
  taxMatrix: {},
  settings: { includeIcmsInPisCofinsBase: false },
  revision: 3,
  // Midnight of 1 January 2027 in São Paulo, where the tests run.
  scheduled: [{ revision: 4, effectiveFrom: '2027-01-01T03:00:00.000Z', actor: { type: 'user', id: 'u-1', name: 'Ana Souza' } }],
} as unknown as FiscalGroup;

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('fiscal'));
});

async function cancelThroughTheDialog() {
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('button', { name: 'Cancel this change' }));
  await user.click(await screen.findByRole('button', { name: 'Cancel the change' }));
}

describe('the scheduled change banner', { timeout: 30_000 }, () => {
  it('says when and by whom, and cancels after confirmation', async () => {
    answer(fetchMock, {
      [`DELETE /api/admin/fiscal-groups/${GROUP_ID}/revisions/4`]: json(204, null),
      [`GET /api/admin/fiscal-groups/${GROUP_ID}`]: json(200, { ...group, scheduled: [] }),
    });
    renderPage(<ScheduledBanner group={group} />);
    expect(screen.getByText(/revision 4 takes effect on 01\/01\/2027, 12:00:00 AM/)).toBeInTheDocument();
    expect(screen.getByText('Scheduled by Ana Souza.')).toBeInTheDocument();
    await cancelThroughTheDialog();
    await screen.findByText('Revision 4 was cancelled.');
    const deleted = requestsOf(fetchMock).find((request) => request.method === 'DELETE')!;
    expect(new URL(deleted.url).pathname).toBe(`/api/admin/fiscal-groups/${GROUP_ID}/revisions/4`);
    expect(deleted.headers.get('x-csrf-token')).toBeTruthy();
  });

  it('explains a 409 as a change that took effect meanwhile', async () => {
    answer(fetchMock, {
      [`DELETE /api/admin/fiscal-groups/${GROUP_ID}/revisions/4`]: json(409, {
        error: 'CONFLICT',
        message: 'Revision 4 took effect at 2027-01-01T03:00:00.000Z; only a revision not yet in force can be cancelled',
      }),
    });
    renderPage(<ScheduledBanner group={group} />);
    await cancelThroughTheDialog();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Revision 4 can no longer be cancelled: it took effect (or was cancelled) meanwhile. The page now shows the group as it is.',
    );
  });

  it('shows the API message of any other failure', async () => {
    answer(fetchMock, {
      [`DELETE /api/admin/fiscal-groups/${GROUP_ID}/revisions/4`]: json(503, {
        error: 'SERVICE_UNAVAILABLE',
        message: 'Database unavailable',
      }),
    });
    renderPage(<ScheduledBanner group={group} />);
    await cancelThroughTheDialog();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not cancel: Database unavailable');
  });
});
