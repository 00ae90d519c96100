import { describe, expect, it } from 'vitest';
import { groupFormValues } from './group-form';
import {
  cancelFailureKind,
  cancelRequest,
  impactFailureKind,
  impactRequest,
  localInputNow,
  newestScheduled,
  scheduleBlockers,
  scheduleRequest,
} from './group-requests';
import type { FiscalGroup } from './matrix-model';

const group = {
  id: 'g-1',
  name: 'Restaurants SP',
  externalId: 'ERP-1',
  uf: 'SP',
  taxRegime: 'LUCRO_PRESUMIDO',
  stores: [
    { store_id: 's1', store_name: 'One' },
    { store_id: 's2', store_name: 'Two' },
  ],
  taxMatrix: {
    '1905': { NCM: '1905', CEST: '', CST_ICMS: '00', ICMS_rate: 18, CST_PIS: '01', PIS_rate: 0.65, CST_COFINS: '01', COFINS_rate: 3 },
  },
  settings: { includeIcmsInPisCofinsBase: false },
  revision: 3,
  scheduled: [
    { revision: 4, effectiveFrom: '2027-01-01T03:00:00.000Z', actor: null },
    { revision: 6, effectiveFrom: '2026-12-01T03:00:00.000Z', actor: { type: 'user', id: 'u', name: 'Ana' } },
  ],
} as unknown as FiscalGroup;

describe('scheduling a change', () => {
  it('can schedule the group as stored, and with its stores in another order', () => {
    const values = groupFormValues(group, null);
    expect(scheduleBlockers(group, values)).toEqual([]);
    expect(scheduleBlockers(group, { ...values, stores: [...values.stores].reverse() })).toEqual([]);
  });

  it('cannot schedule a store added, removed or renamed, nor a new external id', () => {
    const values = groupFormValues(group, null);
    expect(scheduleBlockers(group, { ...values, stores: values.stores.slice(1) })).toEqual(['stores']);
    const renamed = values.stores.map((store, index) => (index === 0 ? { ...store, store_name: 'Uno' } : store));
    expect(scheduleBlockers(group, { ...values, stores: renamed, externalId: 'ERP-2' })).toEqual(['stores', 'externalId']);
  });

  it('sends effectiveFrom with the browser offset of that date, and the body without stores and external id', () => {
    const values = { ...groupFormValues(group, null), name: 'Restaurants SP 2027' };
    // The tests run in America/Sao_Paulo: UTC−03:00 all year since 2019.
    const request = scheduleRequest(group.id, values, '2027-01-01T00:00');
    expect(request?.params).toEqual({ path: { id: 'g-1' }, query: { effectiveFrom: '2027-01-01T00:00:00-03:00' } });
    expect(request?.body).toMatchObject({
      name: 'Restaurants SP 2027',
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      taxMatrix: group.taxMatrix,
    });
    expect(request?.body).not.toHaveProperty('stores');
    expect(request?.body).not.toHaveProperty('externalId');
    expect(scheduleRequest(group.id, values, '')).toBeUndefined();
    expect(scheduleRequest(group.id, values, 'not a date')).toBeUndefined();
  });

  it('names the revision the scheduling made: the highest number scheduled', () => {
    expect(newestScheduled(group)?.revision).toBe(6);
    expect(newestScheduled({ ...group, scheduled: [] })).toBeUndefined();
  });

  it('offers no instant before now in the picker', () => {
    expect(localInputNow(new Date('2026-11-26T13:05:41Z'))).toBe('2026-11-26T10:05');
  });
});

describe('previewing and cancelling', () => {
  it('posts the body a save would send, with the window in hours', () => {
    const values = groupFormValues(group, null);
    const request = impactRequest(group.id, values, 48);
    expect(request.params).toEqual({ path: { id: 'g-1' } });
    expect(request.body).toMatchObject({ hours: 48, externalId: 'ERP-1', stores: group.stores, taxMatrix: group.taxMatrix });
  });

  it('cancels by group and revision; a 409 is a change that took effect meanwhile', () => {
    expect(cancelRequest('g-1', 4)).toEqual({ params: { path: { id: 'g-1', revision: 4 } } });
    expect(cancelFailureKind({ status: 409, message: 'took effect' })).toBe('tookEffect');
    expect(cancelFailureKind({ status: 409, code: 'REVISION_IN_FORCE', message: 'took effect' })).toBe('tookEffect');
    expect(cancelFailureKind({ status: 409, code: 'REVISION_IN_USE', message: 'taxed an order' })).toBe('inUse');
    expect(cancelFailureKind({ status: 404, message: 'no revision' })).toBe('gone');
    expect(cancelFailureKind({ status: 503, message: 'down' })).toBe('other');
    expect(cancelFailureKind(new Error('network'))).toBe('other');
  });
});

describe('a refused preview', () => {
  it('tells two previews already running and one past its deadline from other failures', () => {
    expect(impactFailureKind({ status: 429, code: 'RATE_LIMITED', message: 'busy' })).toBe('busy');
    expect(impactFailureKind({ status: 503, code: 'DEADLINE_EXCEEDED', message: 'too long' })).toBe('tooLong');
    expect(impactFailureKind({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' })).toBe('other');
    expect(impactFailureKind(new Error('network'))).toBe('other');
  });
});
