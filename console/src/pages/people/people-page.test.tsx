import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../api/client';

type UserDto = Schemas['UserDto'];
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { PeoplePage } from './people-page';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const bia: UserDto = {
  id: 'u-2',
  email: 'bia@example.com',
  name: 'Bia Lima',
  role: 'fiscal',
  active: true,
  passwordSet: false,
  twoFactorEnabled: false,
  createdAt: '2026-11-25T12:00:00.000Z',
  lastSignInAt: null,
};
const page = (items: UserDto[]) => json(200, { items, total: items.length, page: 1, pageSize: 50, totalPages: 1 });

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('admin'));
});

describe('the people page', { timeout: 30_000 }, () => {
  it('invites a person and shows the one-time link once, with a copy button', async () => {
    answer(fetchMock, {
      'GET /api/admin/users': page([]),
      'POST /api/admin/users': json(201, {
        user: bia,
        link: 'http://127.0.0.1:3000/console/set-password#tok-123',
        linkExpiresAt: '2026-11-26T12:00:00.000Z',
        emailSent: false,
        emailProblem: 'SMTP_NOT_CONFIGURED',
      }),
    });
    renderPage(<PeoplePage />, '/people');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Invite a person' }));
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'bia@example.com');
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Bia Lima');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Role/ }), 'fiscal');
    expect(screen.getByRole('combobox', { name: /^Role/ })).toHaveAccessibleDescription(
      'Fiscal: also fiscal groups, product categories and the tax calculator.',
    );
    await user.click(screen.getByRole('button', { name: 'Invite' }));

    const shown = await screen.findByText('http://127.0.0.1:3000/console/set-password#tok-123');
    expect(shown).toBeInTheDocument();
    const box = screen.getByRole('status');
    expect(box).toHaveTextContent('Shown this once');
    expect(within(box).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(await post.json()).toEqual({ email: 'bia@example.com', name: 'Bia Lima', role: 'fiscal' });
    expect(post.headers.get('x-csrf-token')).toBe('csrf-1');
  });

  it('says the link was e-mailed when the service sent it, and shows no link', async () => {
    answer(fetchMock, {
      'GET /api/admin/users': page([]),
      'POST /api/admin/users': json(201, {
        user: bia,
        link: null,
        linkExpiresAt: '2026-11-26T12:00:00.000Z',
        emailSent: true,
        emailProblem: null,
      }),
    });
    renderPage(<PeoplePage />, '/people');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Invite a person' }));
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'bia@example.com');
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Bia Lima');
    await user.click(screen.getByRole('button', { name: 'Invite' }));

    expect(await screen.findByText(/The link was e-mailed to bia@example.com; only that mailbox has it\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
  });

  it('shows the link with the reason when the e-mail failed', async () => {
    answer(fetchMock, {
      'GET /api/admin/users': page([bia]),
      'POST /api/admin/users/u-2/link': json(201, {
        link: 'http://x/console/set-password#tok-7',
        linkExpiresAt: '2026-11-26T12:00:00.000Z',
        emailSent: false,
        emailProblem: 'SMTP_TIMEOUT',
      }),
    });
    renderPage(<PeoplePage />, '/people');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Edit Bia Lima' }));
    await user.click(screen.getByRole('button', { name: 'New one-time link' }));
    expect(await screen.findByText('http://x/console/set-password#tok-7')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The e-mail was not sent (the mail server did not answer in time): send the person this link yourself.',
    );
  });

  it('says at the email field that it is in use', async () => {
    answer(fetchMock, {
      'GET /api/admin/users': page([]),
      'POST /api/admin/users': json(409, { error: 'EMAIL_IN_USE', message: 'A person with this email exists' }),
    });
    renderPage(<PeoplePage />, '/people');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Invite a person' }));
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'bia@example.com');
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Bia');
    await user.click(screen.getByRole('button', { name: 'Invite' }));

    expect(await screen.findByText('A person with this email already exists.')).toBeInTheDocument();
    expect(screen.queryByText('Shown this once: copy it now. It cannot be shown again.')).not.toBeInTheDocument();
  });

  it('edits the role and active flag, sending only what changed, and makes a new link', async () => {
    answer(fetchMock, {
      'GET /api/admin/users': page([bia]),
      'PATCH /api/admin/users/u-2': json(200, { ...bia, role: 'support', active: false }),
      'POST /api/admin/users/u-2/link': json(200, {
        link: 'http://x/console/set-password#tok-9',
        linkExpiresAt: '2026-11-26T12:00:00.000Z',
        emailSent: false,
        emailProblem: 'SMTP_NOT_CONFIGURED',
      }),
    });
    renderPage(<PeoplePage />, '/people');
    const user = userEvent.setup({ delay: null });

    expect(await screen.findByText('Invited, no password yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Bia Lima' }));
    await user.click(screen.getByRole('button', { name: 'New one-time link' }));
    expect(await screen.findByText('http://x/console/set-password#tok-9')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: /^Role/ }), 'support');
    await user.click(screen.getByRole('switch', { name: /^Active/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Bia Lima is saved.')).toBeInTheDocument();
    const patch = requestsOf(fetchMock).find((request) => request.method === 'PATCH')!;
    expect(await patch.json()).toEqual({ role: 'support', active: false });
  });
});
