import type { ApiProblem, Schemas } from '../../api/client';

type Alias = Schemas['StatusAliasDto'];

/** True when two tables hold the same rows in the same order (what a save would change). */
export function sameAliases(a: readonly Alias[], b: readonly Alias[]): boolean {
  return a.length === b.length && a.every((row, index) => row.label === b[index]!.label && row.status === b[index]!.status);
}

const ROW_FIELD = /^aliases\.(\d+)(?:\.\w+)?$/;

/** A 400's problems sorted by the row they name (`aliases.3.label`), and the rest. */
export function aliasProblems(problem: ApiProblem): { byRow: Map<number, string[]>; rest: { field?: string; problem?: string }[] } {
  const byRow = new Map<number, string[]>();
  const rest: { field?: string; problem?: string }[] = [];
  for (const detail of problem.details ?? []) {
    const row = detail.field ? ROW_FIELD.exec(detail.field) : null;
    if (row && detail.problem) byRow.set(Number(row[1]), [...(byRow.get(Number(row[1])) ?? []), detail.problem]);
    else rest.push(detail);
  }
  return { byRow, rest };
}
