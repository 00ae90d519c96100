import type { ApiProblem } from '../../api/client';

/** One problem of an imported CSV as the panel lists it: "Line 3" and "ICMS_rate: problem". */
export interface CsvProblemLine {
  /** The file's line (1 = the header); undefined for a problem of no line (a path parameter...). */
  line?: number;
  text: string;
}

type Detail = NonNullable<ApiProblem['details']>[number];

/** Reads the import's typed `line` and `column` (the API's `field` says the same in words, for people only). */
export function csvProblemLine(detail: Detail): CsvProblemLine {
  const problem = detail.problem ?? '';
  if (typeof detail.line !== 'number') return { text: [detail.field, detail.problem].filter(Boolean).join(': ') };
  return { line: detail.line, text: typeof detail.column === 'string' ? `${detail.column}: ${problem}` : problem };
}
