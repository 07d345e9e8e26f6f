import * as React from 'react';
import {
  DEPLOYMENT_TIERS,
  OverviewFilters,
  OverviewRow,
  overviewRowFolder,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { humanizeEntityRef } from '@backstage/plugin-catalog-react';
import { parseEntityRef } from '@backstage/catalog-model';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import InputAdornment from '@mui/material/InputAdornment';
import SearchIcon from '@mui/icons-material/Search';

type ListFilter = 'tiers' | 'folders' | 'owners' | 'systems';

/** Folders, and the environment paths inside them, present in the rows. */
function folderOptions(rows: OverviewRow[]): string[] {
  const options = new Set<string>();
  for (const row of rows) {
    const folder = overviewRowFolder(row);
    if (!folder || !row.environment) continue;
    options.add(folder);
    options.add(row.environment.name);
  }
  return [...options].sort();
}

function distinct(values: Array<string | undefined>): string[] {
  return [...new Set(values.filter((v): v is string => Boolean(v)))].sort();
}

function refLabel(ref: string): string {
  try {
    return humanizeEntityRef(parseEntityRef(ref), { defaultKind: 'group' });
  } catch {
    return ref;
  }
}

/** How long typing pauses before the search applies. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * The overview's filters. The search applies as the user types (once typing
 * pauses, or at once on Enter); a change of any other filter carries what
 * the box holds, so the box and the rows never disagree. The address keeps
 * it all (useOverviewFilters).
 */
export function OverviewFiltersBar({
  rows,
  filters,
  onChange,
}: {
  rows: OverviewRow[];
  filters: OverviewFilters;
  onChange: (filters: OverviewFilters) => void;
}) {
  const [text, setText] = React.useState(filters.text ?? '');
  // What the box last applied: an address that changes to something else
  // (back, a shared link) replaces what the box holds.
  const applied = React.useRef(filters.text ?? '');
  React.useEffect(() => {
    const fromAddress = filters.text ?? '';
    if (fromAddress === applied.current) return;
    applied.current = fromAddress;
    setText(fromAddress);
  }, [filters.text]);
  const latest = React.useRef({ filters, onChange });
  latest.current = { filters, onChange };
  const apply = React.useCallback((next: OverviewFilters, value: string) => {
    applied.current = value;
    latest.current.onChange({ ...next, text: value || undefined });
  }, []);
  React.useEffect(() => {
    if (text === applied.current) return undefined;
    const timer = setTimeout(() => {
      if (text !== applied.current) apply(latest.current.filters, text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, apply]);

  const lists: Array<{
    key: ListFilter;
    label: string;
    options: string[];
    format?: (value: string) => string;
  }> = [
    { key: 'tiers', label: 'Tier', options: [...DEPLOYMENT_TIERS] },
    { key: 'folders', label: 'Folder', options: folderOptions(rows) },
    {
      key: 'owners',
      label: 'Owner',
      options: distinct(rows.map(r => r.owner)),
      format: refLabel,
    },
    {
      key: 'systems',
      label: 'System',
      options: distinct(rows.map(r => r.system)),
      format: refLabel,
    },
  ];
  const anyFilter = Object.keys(filters).length > 0;

  return (
    <Box
      component="form"
      role="search"
      aria-label="Filter environments"
      onSubmit={event => {
        event.preventDefault();
        apply(filters, text);
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
    >
      <TextField
        size="small"
        label="Search"
        placeholder="Entity, project, environment, agent, namespace"
        value={text}
        onChange={event => setText(event.target.value)}
        onKeyDown={event => {
          // The form has several fields and no submit button, so a browser
          // submits nothing on Enter (HTML's implicit submission).
          if (event.key !== 'Enter') return;
          event.preventDefault();
          apply(filters, text);
        }}
        sx={{ minWidth: 300 }}
        InputProps={{
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        }}
      />
      {lists.map(list => (
        <Autocomplete
          key={list.key}
          multiple
          size="small"
          options={list.options}
          value={filters[list.key] ?? []}
          getOptionLabel={option => list.format?.(option) ?? option}
          onChange={(_event, value) =>
            apply({ ...filters, [list.key]: value as any }, text)
          }
          renderInput={params => <TextField {...params} label={list.label} />}
          sx={{ minWidth: 180 }}
        />
      ))}
      {anyFilter && (
        <Button
          size="small"
          onClick={() => {
            setText('');
            apply({}, '');
          }}
        >
          Clear filters
        </Button>
      )}
    </Box>
  );
}
