import * as React from 'react';
import { useMemo, useState } from 'react';
import {
  CiAccessCell,
  CiAccessDecision,
  CiAccessEntry,
  evaluateCiAccessRules,
  evaluateCiExpression,
  evaluateCiExpressionValue,
  yamlErrorReason,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { parse } from 'yaml';
import { describeRule } from './describe';

/** `KEY=value` lines to variables; lines without `=` are ignored. */
export function parseVariables(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) variables[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  return variables;
}

function formatVariables(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

/** The expression (or YAML line) with a caret under the failing position. */
function ErrorMarker({
  text,
  position,
  note = `position ${position}`,
}: {
  text: string;
  position?: number;
  note?: string;
}) {
  if (position === undefined) return null;
  return (
    <Box
      component="pre"
      aria-label="Error position"
      sx={{ m: 0, mt: 1, fontFamily: 'monospace', fontSize: 13 }}
    >
      {text}
      {'\n'}
      {`${' '.repeat(position)}^ ${note}`}
    </Box>
  );
}

function ExpressionResult({
  expression,
  variables,
}: {
  expression: string;
  variables: Record<string, string>;
}) {
  if (expression.trim() === '') return null;
  const result = evaluateCiExpression(expression, variables);
  if ('error' in result) {
    return (
      <Alert severity="error" variant="outlined">
        {result.error.message}
        <ErrorMarker text={expression} position={result.error.position} />
      </Alert>
    );
  }
  const raw = evaluateCiExpressionValue(expression, variables);
  const value = 'value' in raw ? raw.value : undefined;
  return (
    <Alert severity={result.value ? 'success' : 'info'} variant="outlined">
      The expression is <strong>{result.value ? 'true' : 'false'}</strong>
      {typeof value === 'string' || value === null
        ? ` (GitLab's value: ${JSON.stringify(value)})`
        : ''}
      .
    </Alert>
  );
}

function DecisionView({
  decision,
  entry,
}: {
  decision: CiAccessDecision;
  entry: CiAccessEntry;
}) {
  const ns = decision.namespace;
  const ruleError = decision.ruleErrors[0];
  const ruleText =
    ruleError && entry.rules
      ? String(entry.rules[ruleError.ruleIndex]?.if ?? '')
      : '';
  return (
    <Alert
      severity={decision.authorized ? 'success' : 'warning'}
      variant="outlined"
    >
      <strong>{decision.authorized ? 'Authorized' : 'Denied'}</strong> by{' '}
      {describeRule(decision)}. {decision.message}
      {ns ? (
        <Typography variant="body2">
          Namespace: full name <code>{ns.full}</code>, final name{' '}
          <code>{ns.final}</code>
          {ns.truncated ? ' (truncated)' : ''}.
        </Typography>
      ) : null}
      {ruleError ? (
        <ErrorMarker text={ruleText} position={ruleError.position} />
      ) : null}
    </Alert>
  );
}

function EntryResult({
  text,
  variables,
}: {
  text: string;
  variables: Record<string, string>;
}) {
  let entry: CiAccessEntry;
  try {
    const parsed = parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return (
        <Alert severity="error" variant="outlined">
          Write one ci_access entry as a YAML map (id, rules, …).
        </Alert>
      );
    }
    entry = parsed as CiAccessEntry;
  } catch (error) {
    const at = (error as { linePos?: Array<{ line: number; col: number }> })
      .linePos?.[0];
    const line = at ? text.split('\n')[at.line - 1] : undefined;
    return (
      <Alert severity="error" variant="outlined">
        Not valid YAML{at ? ` at line ${at.line}, column ${at.col}` : ''}:{' '}
        {yamlErrorReason(error as Error)}.
        {at && line !== undefined ? (
          <ErrorMarker
            text={line}
            position={at.col - 1}
            note={`column ${at.col}`}
          />
        ) : null}
      </Alert>
    );
  }
  return (
    <DecisionView
      decision={evaluateCiAccessRules(entry, variables)}
      entry={entry}
    />
  );
}

const EXAMPLE_ENTRY = `id: acme
rules:
  - if: '$CI_ENVIRONMENT_NAME =~ /^review\\//'
    namespace: '$CI_PROJECT_NAME-review'
  - if: '$CI_COMMIT_REF_PROTECTED != "true"'
    when: never
  - namespace: '$CI_PROJECT_NAME-$CI_ENVIRONMENT_SLUG'
`;

/** Evaluates an expression or a whole entry against variables a person picks or types. */
export function TryItBox({
  cells,
  agents,
}: {
  cells: CiAccessCell[];
  /** The agents of the matrix, to name each cell's agent as the matrix does. */
  agents: ReadonlyArray<{ id: string; name: string }>;
}) {
  const agentNames = useMemo(
    () => new Map(agents.map(agent => [agent.id, agent.name])),
    [agents],
  );
  const [mode, setMode] = useState<'expression' | 'entry'>('expression');
  const [expression, setExpression] = useState(
    '$CI_ENVIRONMENT_NAME =~ /^review\\//',
  );
  const [entryText, setEntryText] = useState(EXAMPLE_ENTRY);
  const [source, setSource] = useState(0);
  const [variablesText, setVariablesText] = useState(
    cells[0]
      ? formatVariables(cells[0].variables)
      : 'CI_ENVIRONMENT_NAME=review/x',
  );
  const variables = useMemo(
    () => parseVariables(variablesText),
    [variablesText],
  );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={mode}
        onChange={(_e, value) => value && setMode(value)}
        aria-label="What to try"
      >
        <ToggleButton value="expression">Expression</ToggleButton>
        <ToggleButton value="entry">Whole entry</ToggleButton>
      </ToggleButtonGroup>
      {mode === 'expression' ? (
        <TextField
          label="rules:if expression"
          value={expression}
          onChange={e => setExpression(e.target.value)}
          inputProps={{ spellCheck: false, style: { fontFamily: 'monospace' } }}
          fullWidth
        />
      ) : (
        <TextField
          label="ci_access entry (YAML)"
          value={entryText}
          onChange={e => setEntryText(e.target.value)}
          multiline
          minRows={6}
          inputProps={{ spellCheck: false, style: { fontFamily: 'monospace' } }}
          fullWidth
        />
      )}
      {cells.length > 0 ? (
        <TextField
          select
          size="small"
          label="Variables of the deployment job of"
          value={source}
          onChange={e => {
            const index = Number(e.target.value);
            setSource(index);
            setVariablesText(formatVariables(cells[index].variables));
          }}
        >
          {cells.map((cell, index) => (
            <MenuItem key={`${cell.environment}|${cell.agentId}`} value={index}>
              {cell.environment} (agent{' '}
              {agentNames.get(cell.agentId) ?? cell.agentId})
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      <TextField
        label="CI variables (KEY=value per line)"
        value={variablesText}
        onChange={e => setVariablesText(e.target.value)}
        multiline
        minRows={4}
        maxRows={12}
        inputProps={{ spellCheck: false, style: { fontFamily: 'monospace' } }}
        fullWidth
      />
      {mode === 'expression' ? (
        <ExpressionResult expression={expression} variables={variables} />
      ) : (
        <EntryResult text={entryText} variables={variables} />
      )}
    </Box>
  );
}
