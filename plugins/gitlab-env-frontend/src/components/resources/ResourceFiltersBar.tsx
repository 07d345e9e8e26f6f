import * as React from 'react';
import {
  HEALTH_STATUSES,
  HealthStatus,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import SearchIcon from '@mui/icons-material/Search';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import TableRowsIcon from '@mui/icons-material/TableRows';
import { NO_FILTERS, ResourceFilters } from '../../view/buildGraphView';
import { HealthIcon } from '../health/healthStyle';

export type ResourceViewMode = 'graph' | 'list';

/** Narrow the resources down: by name, kind and health, with hidden kinds on demand. */
export function ResourceFiltersBar({
  filters,
  onChange,
  kinds,
  hiddenCount,
  mode,
  onModeChange,
}: {
  filters: ResourceFilters;
  onChange: (filters: ResourceFilters) => void;
  /** Kinds present in the environment, for the kind menu. */
  kinds: string[];
  hiddenCount: number;
  mode: ResourceViewMode;
  onModeChange: (mode: ResourceViewMode) => void;
}) {
  const active =
    filters.kinds.length > 0 ||
    filters.health.length > 0 ||
    filters.name !== '';
  return (
    <Box
      role="toolbar"
      aria-label="Resource filters"
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}
    >
      <TextField
        size="small"
        label="Name"
        value={filters.name}
        onChange={e => onChange({ ...filters, name: e.target.value })}
        InputProps={{
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        }}
        sx={{ width: 200 }}
      />
      <FormControl size="small" sx={{ width: 200 }}>
        <InputLabel id="gitlab-env-kind-filter">Kind</InputLabel>
        <Select
          labelId="gitlab-env-kind-filter"
          multiple
          value={filters.kinds}
          onChange={e => {
            const value = e.target.value;
            onChange({
              ...filters,
              kinds: typeof value === 'string' ? value.split(',') : value,
            });
          }}
          input={<OutlinedInput label="Kind" />}
          renderValue={selected => selected.join(', ')}
        >
          {kinds.map(kind => (
            <MenuItem key={kind} value={kind}>
              <Checkbox size="small" checked={filters.kinds.includes(kind)} />
              <ListItemText primary={kind} />
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <ToggleButtonGroup
        size="small"
        value={filters.health}
        onChange={(_e, value: HealthStatus[]) =>
          onChange({ ...filters, health: value })
        }
        aria-label="Health"
      >
        {HEALTH_STATUSES.map(status => (
          <ToggleButton
            key={status}
            value={status}
            aria-label={status}
            title={status}
          >
            <HealthIcon status={status} />
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <FormControlLabel
        control={
          <Switch
            size="small"
            checked={filters.showAllKinds}
            onChange={e =>
              onChange({ ...filters, showAllKinds: e.target.checked })
            }
          />
        }
        label={`Show all kinds${
          hiddenCount > 0 && !filters.showAllKinds
            ? ` (${hiddenCount} hidden)`
            : ''
        }`}
      />
      {active ? (
        <Button
          size="small"
          onClick={() =>
            onChange({ ...NO_FILTERS, showAllKinds: filters.showAllKinds })
          }
        >
          Clear filters
        </Button>
      ) : null}
      <Box sx={{ flexGrow: 1 }} />
      <ToggleButtonGroup
        size="small"
        exclusive
        value={mode}
        onChange={(_e, value: ResourceViewMode | null) =>
          value && onModeChange(value)
        }
        aria-label="View"
      >
        <ToggleButton value="graph" aria-label="Graph view">
          <AccountTreeIcon fontSize="small" sx={{ mr: 0.5 }} /> Graph
        </ToggleButton>
        <ToggleButton value="list" aria-label="List view">
          <TableRowsIcon fontSize="small" sx={{ mr: 0.5 }} /> List
        </ToggleButton>
      </ToggleButtonGroup>
    </Box>
  );
}
