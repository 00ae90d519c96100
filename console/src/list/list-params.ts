/**
 * A list page's state as it is kept in the URL: one parameter per filter (named as the API names
 * it, so a link shares the exact list) and `page` (absent on the first page). Pure functions, no
 * React: `useListPage` reads and writes the URL through them.
 */
export interface ListParams<N extends string> {
  /** Every named parameter, '' when the URL does not have it; values are kept as written. */
  values: Record<N, string>;
  /** The page asked for, 1 when absent or not a positive number. */
  page: number;
}

export function readListParams<N extends string>(search: URLSearchParams, names: readonly N[]): ListParams<N> {
  const values = Object.fromEntries(names.map((name) => [name, search.get(name) ?? ''])) as Record<N, string>;
  return { values, page: pageOf(search.get('page')) };
}

export function pageOf(value: string | null): number {
  const page = Math.floor(Number(value));
  return Number.isFinite(page) && page > 1 ? page : 1;
}

/** The URL of a new filter choice: blank values left out, the rest trimmed; back to the first page. */
export function writeListParams(values: Partial<Record<string, string | undefined>>): URLSearchParams {
  const next = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    const trimmed = (value ?? '').trim();
    if (trimmed) next.set(name, trimmed);
  }
  return next;
}

/** The same URL at another page (the first page has no `page` parameter). */
export function withPage(search: URLSearchParams, page: number): URLSearchParams {
  const next = new URLSearchParams(search);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  return next;
}

/**
 * The non-blank parameters and `page`, exactly as the URL holds them, for the API's query string:
 * a bad value (a hand-edited link) goes to the API, whose 400 names the parameter.
 */
export function apiQueryOf<N extends string>(search: URLSearchParams, names: readonly N[]): Partial<Record<N | 'page', string>> {
  const query: Partial<Record<N | 'page', string>> = {};
  for (const name of [...names, 'page' as const]) {
    const value = search.get(name);
    if (value !== null && value !== '') query[name] = value;
  }
  return query;
}
