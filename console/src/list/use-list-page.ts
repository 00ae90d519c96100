import { keepPreviousData, useQuery, type QueryKey } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { apiQueryOf, readListParams, withPage, writeListParams, type ListParams } from './list-params';

export interface ListPageState<F extends string, S extends string> extends ListParams<F | S> {
  /** Whether any filter (not a setting such as the page size) is set: "no match" rather than "nothing yet". */
  filtered: boolean;
  /** The non-blank parameters and the page, for the API's query string. */
  apiQuery: Partial<Record<F | S | 'page', string>>;
}

/**
 * A list page: the URL ↔ the filters ↔ the query. The filters and the page live in the URL (a link
 * or the back button restores the exact list); the query's key and request are made from them, and
 * the previous page stays on screen while the next one loads.
 *
 * `filters` narrow the list; `settings` (e.g. `pageSize`) are kept in the URL the same way but do
 * not count as filtering. `urlKey` changes whenever the URL does: give it to the filter form as its
 * React `key`, so a shared link or the back button resets the form's inputs to the URL.
 */
export function useListPage<T, F extends string, S extends string = never>(options: {
  filters: readonly F[];
  settings?: readonly S[];
  queryKey: (state: ListPageState<F, S>) => QueryKey;
  queryFn: (state: ListPageState<F, S>) => Promise<T>;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const names: readonly (F | S)[] = [...options.filters, ...(options.settings ?? [])];
  const params = readListParams(searchParams, names);
  const state: ListPageState<F, S> = {
    ...params,
    filtered: options.filters.some((name) => params.values[name] !== ''),
    apiQuery: apiQueryOf(searchParams, names),
  };
  const query = useQuery({
    queryKey: options.queryKey(state),
    queryFn: () => options.queryFn(state),
    placeholderData: keepPreviousData,
  });
  return {
    ...state,
    query,
    urlKey: searchParams.toString(),
    /** The filter form's choice, as the new URL (first page). */
    apply: (values: Partial<Record<F | S, string>>) => setSearchParams(writeListParams(values)),
    clear: () => setSearchParams(new URLSearchParams()),
    goTo: (page: number) => setSearchParams(withPage(searchParams, page)),
  };
}
