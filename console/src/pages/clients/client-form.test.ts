import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { type ClientDto, clientFormValues, clientPatch, clientSchema, createClientBody } from './client-form';

const pos: ClientDto = {
  clientId: 'pos-162',
  name: 'POS 162',
  scopes: ['orders'],
  stores: ['162'],
  active: true,
  createdAt: '2026-11-01T12:00:00.000Z',
  updatedAt: '2026-11-01T12:00:00.000Z',
};

describe("an API client's form", () => {
  const schema = clientSchema(i18next.getFixedT('en', 'clients'));

  it('refuses a store-limited client with the admin scope, at the stores', () => {
    const result = schema.safeParse({ name: 'POS', scopes: ['orders', 'admin'], stores: ['162'], active: true });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['stores', 'A client limited to some stores cannot have the admin scope: remove the stores or the admin scope.'],
    ]);
    // Every store (no list) with admin is the platform's own kind of client.
    expect(schema.safeParse({ name: 'Back office', scopes: ['admin'], stores: [], active: true }).success).toBe(true);
  });

  it('needs a name and a scope', () => {
    const result = schema.safeParse({ name: ' ', scopes: [], stores: [], active: true });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['name', 'scopes']);
  });

  it('creates with trimmed, distinct stores and patches only what changed', () => {
    expect(createClientBody({ name: ' POS 163 ', scopes: ['orders'], stores: [' 163', '163', ''], active: true })).toEqual({
      name: 'POS 163',
      scopes: ['orders'],
      stores: ['163'],
    });
    expect(clientPatch(pos, clientFormValues(pos))).toEqual({});
    expect(clientPatch(pos, { ...clientFormValues(pos), scopes: ['orders'], stores: ['162', '163'] })).toEqual({ stores: ['162', '163'] });
    expect(clientPatch(pos, { ...clientFormValues(pos), stores: [], active: false })).toEqual({ stores: [], active: false });
  });
});
