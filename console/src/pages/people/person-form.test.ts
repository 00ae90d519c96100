import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../api/client';
import { inviteBody, inviteSchema, personFormValues, personPatch } from './person-form';

const ana: Schemas['UserDto'] = {
  id: 'u-1',
  email: 'ana@example.com',
  name: 'Ana',
  role: 'support',
  active: true,
  passwordSet: true,
  twoFactorEnabled: false,
  createdAt: '2026-11-01T12:00:00.000Z',
  lastSignInAt: null,
};

describe("a person's form", () => {
  it('sends only what changed', () => {
    expect(personPatch(ana, personFormValues(ana))).toEqual({});
    expect(personPatch(ana, { name: ' Ana Souza ', role: 'support', active: true })).toEqual({ name: 'Ana Souza' });
    expect(personPatch(ana, { name: 'Ana', role: 'fiscal', active: false })).toEqual({ role: 'fiscal', active: false });
  });

  it('invites with trimmed values, and refuses a blank name or a text that is no email', () => {
    expect(inviteBody({ email: ' bia@example.com ', name: ' Bia ', role: 'admin' })).toEqual({
      email: 'bia@example.com',
      name: 'Bia',
      role: 'admin',
    });
    const schema = inviteSchema(i18next.getFixedT('en', 'people'));
    const result = schema.safeParse({ email: 'bia', name: '  ', role: 'fiscal' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['email', 'Not an email address'],
      ['name', 'Required'],
    ]);
    expect(schema.safeParse({ email: 'bia@example.com', name: 'Bia', role: 'owner' }).success).toBe(false);
  });
});
