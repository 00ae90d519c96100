import { isProblem } from '../../api/client';
import { isoToLocalInput, localInputToIsoWithOffset } from '../../common/format';
import { groupBody, type GroupFormValues } from './group-form';
import type { FiscalGroup } from './matrix-model';

/** Why the edited group cannot be scheduled: store moves and a new external id take effect at once (the API refuses them on a date). */
export type ScheduleBlocker = 'stores' | 'externalId';

/** The impact preview's window choices, in hours (the API takes 1 to 168). */
export const IMPACT_HOURS = [24, 48, 72, 168] as const;

function sameStores(group: FiscalGroup, values: GroupFormValues): boolean {
  const held = group.stores.map((store) => `${store.store_id}\u0000${store.store_name}`).sort();
  const edited = values.stores.map((store) => `${store.store_id.trim()}\u0000${store.store_name.trim()}`).sort();
  return held.length === edited.length && held.every((key, index) => key === edited[index]);
}

/** What in the edited values keeps them from being scheduled, none when they can be. */
export function scheduleBlockers(group: FiscalGroup, values: GroupFormValues): ScheduleBlocker[] {
  const blockers: ScheduleBlocker[] = [];
  if (!sameStores(group, values)) blockers.push('stores');
  if ((group.externalId ?? '') !== values.externalId.trim()) blockers.push('externalId');
  return blockers;
}

/**
 * `PUT /api/admin/fiscal-groups/{id}?effectiveFrom=…`: the `datetime-local` value sent with the
 * browser's offset for that instant, and the group's body without its stores and external id,
 * which a scheduled change cannot carry (the group keeps them). Undefined without a valid instant.
 */
export function scheduleRequest(groupId: string, values: GroupFormValues, localInstant: string) {
  const effectiveFrom = localInputToIsoWithOffset(localInstant);
  if (!effectiveFrom) return undefined;
  const { stores: _stores, externalId: _externalId, ...body } = groupBody(values);
  return { params: { path: { id: groupId }, query: { effectiveFrom } }, body };
}

/** `POST /api/admin/fiscal-groups/{id}/impact`: the body a save would send, and the window. */
export function impactRequest(groupId: string, values: GroupFormValues, hours: number) {
  return { params: { path: { id: groupId } }, body: { ...groupBody(values), hours } };
}

/** `DELETE /api/admin/fiscal-groups/{id}/revisions/{revision}`. */
export function cancelRequest(groupId: string, revision: number) {
  return { params: { path: { id: groupId, revision } } };
}

/**
 * A refused cancellation: a 409 `REVISION_IN_USE` means an order was already taxed by the change (it stays); any other
 * 409 that it took effect (or was cancelled) meanwhile. Neither is a failure to retry.
 */
export function cancelFailureKind(error: unknown): 'inUse' | 'tookEffect' | 'gone' | 'other' {
  if (!isProblem(error)) return 'other';
  if (error.status === 409 && error.code === 'REVISION_IN_USE') return 'inUse';
  if (error.status === 409) return 'tookEffect';
  if (error.status === 404) return 'gone';
  return 'other';
}

/**
 * A refused preview: two already running on the instance (429 `RATE_LIMITED`), or one that ran past its deadline
 * (503 `DEADLINE_EXCEEDED`, where a shorter window helps); anything else is shown with the API's sentence.
 */
export function impactFailureKind(error: unknown): 'busy' | 'tooLong' | 'other' {
  if (!isProblem(error)) return 'other';
  if (error.status === 429) return 'busy';
  if (error.status === 503 && error.code === 'DEADLINE_EXCEEDED') return 'tooLong';
  return 'other';
}

/** The revision a scheduling answer made: the latest of the group's scheduled ones. */
export function newestScheduled(group: FiscalGroup): FiscalGroup['scheduled'][number] | undefined {
  return group.scheduled.reduce<FiscalGroup['scheduled'][number] | undefined>(
    (newest, item) => (!newest || item.revision > newest.revision ? item : newest),
    undefined,
  );
}

/** The `min` of the schedule input: now, in the browser's wall-clock time (a past instant is the API's 400 anyway). */
export function localInputNow(now: Date = new Date()): string {
  return isoToLocalInput(now.toISOString());
}
