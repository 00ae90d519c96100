import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, json, requestsOf } from '../../testing/api-stub';
import { readSaveFailure } from './save-failure';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

beforeEach(() => {
  fetchMock.mockReset();
});

describe('a save refused because a store is held elsewhere', () => {
  it('asks the fiscal group list filtered by each store for the group holding it, when the 409 does not name it', async () => {
    answer(fetchMock, {
      'GET /api/admin/fiscal-groups': (request) =>
        new URL(request.url).searchParams.get('storeId') === 's1'
          ? json(200, { items: [{ id: 'g-2', name: 'Restaurants RJ' }], total: 1, page: 1, pageSize: 20, totalPages: 1 })
          : json(200, { items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 }),
    });
    const problem = { status: 409, code: 'CONFLICT', message: 'The resource already exists' };

    const failure = await readSaveFailure(problem, ['s1', 's2'], 'g-1');

    expect(failure.conflicts).toEqual([{ storeId: 's1', groupId: 'g-2', groupName: 'Restaurants RJ' }]);
    expect(requestsOf(fetchMock).map((request) => request.url.replace(/^https?:\/\/[^/]+/, ''))).toEqual([
      '/api/admin/fiscal-groups?storeId=s1',
      '/api/admin/fiscal-groups?storeId=s2',
    ]);
  });
});
