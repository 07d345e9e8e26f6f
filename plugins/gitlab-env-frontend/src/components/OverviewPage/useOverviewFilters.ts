import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  OverviewFilters,
  formatOverviewFilters,
  parseOverviewFilters,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** The overview's filters, kept in the URL so a view can be shared as a link. */
export function useOverviewFilters(): [
  OverviewFilters,
  (filters: OverviewFilters) => void,
] {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.toString();
  const filters = useMemo(() => parseOverviewFilters(query), [query]);
  const setFilters = useCallback(
    (next: OverviewFilters) =>
      setSearchParams(new URLSearchParams(formatOverviewFilters(next)), {
        replace: true,
      }),
    [setSearchParams],
  );
  return [filters, setFilters];
}
