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
  React.useEffect(() => setText(filters.text ?? ''), [filters.text]);

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
        onChange({ ...filters, text: text || undefined });
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
    >
      <TextField
        size="small"
        label="Search"
        placeholder="Entity, project, environment, agent, namespace"
        value={text}
        onChange={event => setText(event.target.value)}
        onBlur={() => onChange({ ...filters, text: text || undefined })}
        onKeyDown={event => {
          // The form has several fields and no submit button, so a browser
          // submits nothing on Enter (HTML's implicit submission).
          if (event.key !== 'Enter') return;
          event.preventDefault();
          onChange({ ...filters, text: text || undefined });
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
            onChange({ ...filters, [list.key]: value as any })
          }
          renderInput={params => <TextField {...params} label={list.label} />}
          sx={{ minWidth: 180 }}
        />
      ))}
      {anyFilter && (
        <Button size="small" onClick={() => onChange({})}>
          Clear filters
        </Button>
      )}
    </Box>
  );
}
