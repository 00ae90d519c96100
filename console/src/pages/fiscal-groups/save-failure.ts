import { api, isProblem, type ApiProblem } from '../../api/client';
import { readStoreConflicts, sortDetails, type StoreConflict } from './matrix-model';

/** Why the last save failed: the API's problem, its details sorted onto fields and cells, and the stores held elsewhere. */
export interface SaveFailure {
  problem: ApiProblem;
  sorted: ReturnType<typeof sortDetails>;
  conflicts: StoreConflict[];
}

/** Reads a failed save's error: the field problems and the store conflicts (the group holding each store). */
export async function readSaveFailure(error: unknown, storeIds: string[], ownId: string | undefined): Promise<SaveFailure> {
  const problem: ApiProblem = isProblem(error) ? error : { status: 0, message: String(error) };
  let conflicts = problem.status === 409 ? readStoreConflicts(problem) : [];
  if (problem.status === 409 && conflicts.length === 0 && problem.code !== 'EXTERNAL_ID_IN_USE') {
    conflicts = await lookUpHolders(storeIds, ownId);
  }
  const held = new Set(conflicts.map((c) => c.storeId));
  // The stores shown beside their rows are not listed again.
  const details = (problem.details ?? []).filter((d) => !(typeof d.storeId === 'string' && held.has(d.storeId)));
  return { problem, sorted: sortDetails(details), conflicts };
}

/** When the 409 does not name the holder: ask the API which group holds each store. */
async function lookUpHolders(storeIds: string[], ownId: string | undefined): Promise<StoreConflict[]> {
  const found = await Promise.all(
    storeIds
      .filter((id) => id)
      .map(async (storeId): Promise<StoreConflict | undefined> => {
        const result = await api.GET('/api/admin/fiscal-groups', { params: { query: { storeId } } });
        const holder = result.data?.items[0];
        if (!holder || holder.id === ownId) return undefined;
        return { storeId, groupId: holder.id, groupName: holder.name };
      }),
  );
  return found.filter((conflict): conflict is StoreConflict => !!conflict);
}

/** Problems of cells whose NCM is no longer in the table, and anything else not shown at a field. */
export function unplacedProblems(failure: SaveFailure, ncms: string[]): string[] {
  return [
    ...failure.sorted.rest,
    ...Object.entries(failure.sorted.byCell)
      .filter(([ncm]) => !ncms.includes(ncm))
      .flatMap(([ncm, cells]) => Object.entries(cells).map(([field, problems]) => `taxMatrix.${ncm}.${field}: ${problems.join('; ')}`)),
    ...Object.entries(failure.sorted.byField)
      .filter(([field]) => field === 'stores' || field.startsWith('settings'))
      .map(([field, problems]) => `${field}: ${problems.join('; ')}`),
  ];
}
