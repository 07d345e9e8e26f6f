import * as React from 'react';
import {
  NamespaceMapping,
  NarrowedScope,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CommandList } from '../text/CommandBlock';

const MAPPING_TEXT: Record<NamespaceMapping['source'], string> = {
  gitlab: "from the environment's settings in GitLab",
  gitlabDeployment: 'from the GitLabDeployment',
  label: 'from the workloads carrying its GitLab annotations:',
  inventory: 'from the inventory of',
};

/** Where the environment's namespace came from, in words. */
export function MappingSource({ mapping }: { mapping?: NamespaceMapping }) {
  if (!mapping) return null;
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      data-testid="namespace-source"
    >
      namespace {MAPPING_TEXT[mapping.source]}
      {mapping.name ? (
        <>
          {' '}
          <code title={mapping.kubectl}>{mapping.name}</code>
        </>
      ) : null}
      {mapping.status ? ` (${mapping.status})` : null}
      {mapping.serves && mapping.serves.length > 1
        ? `; it serves ${mapping.serves.join(', ')}`
        : null}
    </Typography>
  );
}

const plural = (n: number, one: string, many: string) =>
  `${n} ${n === 1 ? one : many}`;

/** That the namespace is shared, and how the read kept this environment's objects. */
function SharedNamespace({
  mapping,
  narrowed,
}: {
  mapping: NamespaceMapping;
  narrowed: NarrowedScope;
}) {
  const flux = mapping.narrowing?.flux;
  const how =
    narrowed.by === 'inventory' && flux
      ? `its objects are those of the inventory of ${flux.kind} ${flux.namespace}/${flux.name}`
      : `its objects are those carrying its GitLab annotations (app.gitlab.com/env: ${mapping.narrowing?.markers.env})`;
  const shared =
    narrowed.sharedWith.length > 0
      ? `The namespace is shared with ${narrowed.sharedWith.join(', ')}`
      : 'The namespace is not dedicated to this environment';
  return (
    <Typography variant="body2" data-testid="shared-namespace">
      {shared}: {how}, and those nobody claims.{' '}
      {narrowed.hidden > 0
        ? `${plural(
            narrowed.hidden,
            'object',
            'objects',
          )} of others hidden (${narrowed.hiddenOwners.join(', ')}).`
        : 'Nothing of others was found in it.'}
    </Typography>
  );
}

/**
 * The kubectl commands that show where the namespace came from and how a
 * shared namespace was narrowed, with what narrowing left out.
 */
export function NamespaceMappingDetails({
  mapping,
  narrowed,
}: {
  mapping?: NamespaceMapping;
  narrowed?: NarrowedScope;
}) {
  if (!mapping) return null;
  const commands = [mapping.kubectl, mapping.narrowing?.kubectl].filter(
    (c): c is string => !!c && c !== '',
  );
  if (commands.length === 0 && !narrowed) return null;
  return (
    <Box
      component="section"
      aria-label="Namespace mapping"
      sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}
    >
      {narrowed ? (
        <SharedNamespace mapping={mapping} narrowed={narrowed} />
      ) : null}
      {commands.length > 0 ? (
        <CommandList
          commands={[...new Set(commands)]}
          label="How the namespace was found"
        />
      ) : null}
    </Box>
  );
}

const ORIGIN_TEXT: Record<NamespaceMapping['source'], string | undefined> = {
  gitlab: undefined,
  gitlabDeployment: 'GitLabDeployment',
  label: 'GitLab annotations',
  inventory: 'Flux inventory',
};

/** On a card: where a namespace GitLab did not give came from, and whether it is shared. */
export function NamespaceOrigin({ mapping }: { mapping?: NamespaceMapping }) {
  const origin = mapping && ORIGIN_TEXT[mapping.source];
  const shared = mapping?.narrowing !== undefined;
  if (!origin && !shared) return null;
  return (
    <Typography
      component="span"
      variant="caption"
      color="text.secondary"
      data-testid="namespace-origin"
    >
      {' '}
      (
      {[origin && `from ${origin}`, shared && 'shared']
        .filter(Boolean)
        .join(', ')}
      )
    </Typography>
  );
}
