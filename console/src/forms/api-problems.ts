import type { ApiProblem } from '../api/client';
import { validationProblemText } from '../api/validation-problem';

/**
 * A 400's details sorted for a form: the problems of the form's own fields, joined per field path
 * (as `form.setErrors` takes them, so they show at the field like the schema's), and the rest, to
 * list above the form.
 */
export function problemsByField(
  problem: ApiProblem | undefined,
  fields: readonly string[],
): { byField: Record<string, string>; rest: { field?: string; problem?: string }[] } {
  const byField: Record<string, string> = {};
  const rest: { field?: string; problem?: string }[] = [];
  for (const detail of problem?.details ?? []) {
    if (detail.field && fields.includes(detail.field)) {
      const said = validationProblemText(detail.problem);
      byField[detail.field] = byField[detail.field] ? `${byField[detail.field]}; ${said}` : said;
    } else rest.push(detail);
  }
  return { byField, rest };
}
