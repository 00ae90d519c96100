import type { TFunction } from 'i18next';
import { z } from 'zod';
import type { Schemas } from '../../api/client';

export type ClientDto = Schemas['ClientDto'];
export type Scope = ClientDto['scopes'][number];
/** Every scope, in the order the form lists them; the type keeps it in step with the API's. */
export const CLIENT_SCOPES = ['admin', 'orders', 'platform'] as const satisfies readonly Scope[];

export interface ClientValues {
  name: string;
  scopes: Scope[];
  stores: string[];
  active: boolean;
}

export const CLIENT_FIELDS = ['name', 'scopes', 'stores', 'active'] as const;

/** The grace periods offered for the old secret, in seconds (the API takes 0 to 604800). */
export const GRACE_NAMES = ['none', 'hour', 'day', 'week'] as const;
export type GraceName = (typeof GRACE_NAMES)[number];
export const GRACE_PERIODS: Record<GraceName, number> = { none: 0, hour: 3600, day: 86_400, week: 604_800 };

export const newClientValues = (): ClientValues => ({ name: '', scopes: ['orders'], stores: [], active: true });
export const clientFormValues = (client: ClientDto): ClientValues => ({
  name: client.name,
  scopes: [...client.scopes],
  stores: [...client.stores],
  active: client.active,
});

const storesOf = (values: ClientValues) => [...new Set(values.stores.map((store) => store.trim()).filter(Boolean))];

export const createClientBody = (values: ClientValues) => ({ name: values.name.trim(), scopes: values.scopes, stores: storesOf(values) });

const sameSet = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item) => b.includes(item));

/** Only what changed: the audit log then lists exactly what the admin changed. */
export function clientPatch(client: ClientDto, values: ClientValues) {
  const name = values.name.trim();
  const stores = storesOf(values);
  return {
    ...(name !== client.name ? { name } : {}),
    ...(!sameSet(values.scopes, client.scopes) ? { scopes: values.scopes } : {}),
    ...(!sameSet(stores, client.stores) ? { stores } : {}),
    ...(values.active !== client.active ? { active: values.active } : {}),
  };
}

/**
 * Blank name, no scope, and the rule the API also keeps: a client limited to some stores cannot
 * hold `admin` (the admin API reaches every store), said at the stores before sending.
 */
export function clientSchema(t: TFunction<'clients'>) {
  return z
    .object({
      name: z.string().refine((value) => value.trim() !== '', { message: t('required') }),
      scopes: z.array(z.enum(CLIENT_SCOPES)).min(1, { message: t('scopesRequired') }),
      stores: z.array(z.string()),
      active: z.boolean(),
    })
    .refine((values) => !(values.scopes.includes('admin') && values.stores.some((store) => store.trim() !== '')), {
      message: t('storeLimitedAdmin'),
      path: ['stores'],
    });
}
