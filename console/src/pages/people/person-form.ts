import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { Schemas } from '../../api/client';
import { ROLES, type Role } from '../../auth/roles';

type UserDto = Schemas['UserDto'];

export interface InviteValues {
  email: string;
  name: string;
  role: Role;
}

export interface PersonValues {
  name: string;
  role: Role;
  active: boolean;
}

export const INVITE_FIELDS = ['email', 'name', 'role'] as const;
export const PERSON_FIELDS = ['name', 'role', 'active'] as const;

export const inviteFormValues = (): InviteValues => ({ email: '', name: '', role: 'support' });
export const personFormValues = (user: UserDto): PersonValues => ({ name: user.name, role: user.role, active: user.active });

export const inviteBody = (values: InviteValues) => ({ email: values.email.trim(), name: values.name.trim(), role: values.role });

/** Only what changed, so that an edit of the name does not also "change" the role in the audit log. */
export function personPatch(user: UserDto, values: PersonValues): { name?: string; role?: Role; active?: boolean } {
  const name = values.name.trim();
  return {
    ...(name !== user.name ? { name } : {}),
    ...(values.role !== user.role ? { role: values.role } : {}),
    ...(values.active !== user.active ? { active: values.active } : {}),
  };
}

/** What is certainly wrong before sending: a blank field, a text that is no email at all. The rest is the API's. */
export function inviteSchema(t: TFunction<'people'>) {
  const required = z.string().refine((value) => value.trim() !== '', { message: t('required') });
  return z.object({
    email: required.refine((value) => /^[^\s@]+@[^\s@]+$/.test(value.trim()), { message: t('emailInvalid') }),
    name: required,
    role: z.enum(ROLES),
  });
}

export function personSchema(t: TFunction<'people'>) {
  return z.object({
    name: z.string().refine((value) => value.trim() !== '', { message: t('required') }),
    role: z.enum(ROLES),
    active: z.boolean(),
  });
}
