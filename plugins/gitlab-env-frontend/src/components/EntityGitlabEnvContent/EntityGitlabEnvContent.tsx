import * as React from 'react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  getCompoundEntityRef,
  stringifyEntityRef,
} from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import {
  EntityEnvironmentsResponse,
  EnvironmentTree,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { gitlabEnvApiRef, gitlabEnvLiveApiRef } from '../../api';
import { Polled, usePolledMap } from '../../hooks/usePolledMap';
import {
  liveKey,
  polledOf,
  useLiveEnvironments,
} from '../../hooks/useLiveEnvironments';
import { AccessAndNamespaces } from '../access';
import { EntityVersionsView, MergeRequestPreviews, Timeline } from '../history';
import { GitlabEnvErrorPanel } from '../errors/GitlabEnvErrorPanel';
import { EnvironmentGrid } from '../environments/EnvironmentGrid';
import { EnvironmentResources } from '../resources/EnvironmentResources';
import { LiveIndicator } from '../live/LiveIndicator';
import { RefreshBar } from './RefreshBar';
import { environmentNeedingAttention } from '../../view/environmentNeedingAttention';

/**
 * How often the tab rereads GitLab and, where live updates do not get
 * through, the clusters while it is open.
 */
export const REFRESH_INTERVAL_MS = 15_000;
/**
 * How often GitLab's environment list is reread while the resources are
 * live: deployments and new environments come from GitLab, not the stream.
 */
export const LIST_INTERVAL_WHILE_LIVE_MS = 60_000;
const ENVIRONMENTS_KEY = 'environments';
/**
 * How long the tab waits for the cards' health before it opens an
 * environment the address does not name: an agent still connecting does
 * not keep the graph away longer.
 */
export const CHOICE_WAITS_FOR_HEALTH_MS = 5_000;

/** True once `ms` have passed since `running` turned true. */
function useElapsed(running: boolean, ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!running) return undefined;
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => clearTimeout(timer);
  }, [running, ms]);
  return elapsed;
}

/**
 * Props of the entity's Environments tab.
 *
 * @public
 */
export interface EntityGitlabEnvContentProps {
  /** How often the open tab rereads GitLab and the clusters; 15 s by default. */
  refreshIntervalMs?: number;
}

const VIEWS = [
  'environments',
  'versions',
  'timeline',
  'merge-requests',
  'access',
] as const;
type View = (typeof VIEWS)[number];

/**
 * The entity's Environments tab: the environments view (`?view` unset),
 * the versions across environments (`?view=versions`), the timeline of
 * every environment (`?view=timeline`), what open merge requests would
 * change (`?view=merge-requests`) and "Access and namespaces"
 * (`?view=access`).
 */
export function EntityGitlabEnvContent({
  refreshIntervalMs = REFRESH_INTERVAL_MS,
}: EntityGitlabEnvContentProps) {
  const { entity } = useEntity();
  const entityRef = useMemo(() => getCompoundEntityRef(entity), [entity]);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('view');
  const view = VIEWS.find(v => v === requested) ?? 'environments';
  const select = (_event: unknown, next: View) => {
    const params = new URLSearchParams(searchParams);
    if (next === 'environments') params.delete('view');
    else params.set('view', next);
    setSearchParams(params, { replace: true });
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Tabs value={view} onChange={select} aria-label="Environments views">
        <Tab value="environments" label="Environments" />
        <Tab value="versions" label="Versions" />
        <Tab value="timeline" label="Timeline" />
        <Tab value="merge-requests" label="Merge requests" />
        <Tab value="access" label="Access and namespaces" />
      </Tabs>
      {view === 'access' ? <AccessAndNamespaces entityRef={entityRef} /> : null}
      {view === 'versions' ? <EntityVersionsView entity={entityRef} /> : null}
      {view === 'timeline' ? <Timeline entity={entityRef} /> : null}
      {view === 'merge-requests' ? (
        <MergeRequestPreviews entity={entityRef} />
      ) : null}
      {view === 'environments' ? (
        <EnvironmentsView refreshIntervalMs={refreshIntervalMs} />
      ) : null}
    </Box>
  );
}

/**
 * A card per GitLab environment with its health, and the graph of the one
 * opened: the one the address names (`?env=<slug>`), else the one that most
 * needs attention, which the address then names so the view can be shared.
 */
function EnvironmentsView({
  refreshIntervalMs,
}: {
  refreshIntervalMs: number;
}) {
  const { entity } = useEntity();
  const entityRef = useMemo(() => getCompoundEntityRef(entity), [entity]);
  const api = useApi(gitlabEnvApiRef);
  const [paused, setPaused] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const requestedSlug = searchParams.get('env') ?? undefined;

  // The list's interval follows the live state, known once it is followed.
  const [live, setLive] = useState(false);
  const list = usePolledMap<EntityEnvironmentsResponse>(
    [ENVIRONMENTS_KEY],
    (_key, signal) => api.getEnvironments(entityRef, { signal }),
    {
      intervalMs: live ? LIST_INTERVAL_WHILE_LIVE_MS : refreshIntervalMs,
      paused,
    },
  );
  const environments = list.entries.get(ENVIRONMENTS_KEY);
  const envs = environments?.value?.environments;

  // Every running environment is followed, so each card's badge stays
  // current, and the opened one even when stopped (stopped environments
  // have nothing deployed). The list is GitLab's alone: each card's health
  // arrives on its own, through the stream (or, where the tab polls, a
  // read of the opened one and of those the list gave no health).
  const entityRefString = stringifyEntityRef(entityRef);
  const chosen = useRef<string>();
  const opened = requestedSlug ?? chosen.current;
  const liveKeys = useMemo(
    () =>
      (envs ?? [])
        .filter(env => env.slug === opened || env.state !== 'stopped')
        .map(env => ({
          entityRef: entityRefString,
          slug: env.slug,
          poll: env.slug === opened || !env.health,
        })),
    [envs, opened, entityRefString],
  );
  const liveStates = useLiveEnvironments(liveKeys, paused);
  const resources = useMemo(() => {
    const entries = new Map<string, Polled<EnvironmentTree>>();
    for (const key of liveKeys) {
      const polled = polledOf(liveStates.get(liveKey(key)));
      if (polled) entries.set(key.slug, polled);
    }
    return entries;
  }, [liveKeys, liveStates]);

  // Chosen once, when the address names no environment: among the running
  // ones whose health is in, the one that most needs attention. The choice
  // waits for the cards' health, but not for long on an agent still
  // connecting; a later health change does not move the user elsewhere.
  const healthWaited = useElapsed(
    Boolean(envs) && !requestedSlug,
    CHOICE_WAITS_FOR_HEALTH_MS,
  );
  if (!requestedSlug && envs && !chosen.current) {
    const settled = envs.every(
      env =>
        env.state === 'stopped' ||
        env.health !== undefined ||
        resources.get(env.slug)?.loading === false,
    );
    if (settled || healthWaited)
      chosen.current = environmentNeedingAttention(
        envs,
        env => resources.get(env.slug)?.value?.health ?? env.health,
      )?.slug;
  }
  const selectedSlug = requestedSlug ?? chosen.current;
  const connection = [...liveStates.values()][0]?.connection;
  const streaming = connection?.mode === 'live';
  useEffect(() => setLive(streaming), [streaming]);

  const { refresh: refreshList } = list;
  const liveApi = useApi(gitlabEnvLiveApiRef);
  const refreshAll = useCallback(() => {
    refreshList();
    liveApi.retry();
  }, [refreshList, liveApi]);

  const open = useCallback(
    (slug: string) => {
      const next = new URLSearchParams(searchParams);
      next.set('env', slug);
      setSearchParams(next, { replace: true });
    },
    [searchParams, setSearchParams],
  );
  // The address names the environment shown, also when the tab chose it.
  useEffect(() => {
    if (!requestedSlug && selectedSlug) open(selectedSlug);
  }, [requestedSlug, selectedSlug, open]);
  const selected = envs?.find(env => env.slug === selectedSlug);

  const now = Math.max(
    environments?.updatedAt ?? 0,
    ...[...resources.values()].map(entry => entry.updatedAt ?? 0),
  );
  const selectedLive = selected
    ? liveStates.get(
        liveKey({ entityRef: entityRefString, slug: selected.slug }),
      )
    : undefined;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <RefreshBar
        updatedAt={environments?.updatedAt}
        refreshing={Boolean(environments?.refreshing)}
        paused={paused}
        onPausedChange={setPaused}
        onRefresh={refreshAll}
        intervalMs={refreshIntervalMs}
        project={environments?.value?.project}
        live={streaming}
        indicator={
          liveKeys.length > 0 ? (
            <LiveIndicator
              connection={connection}
              paused={paused}
              pollIntervalMs={refreshIntervalMs}
            />
          ) : null
        }
      />
      {!environments || environments.loading ? <EnvironmentsSkeleton /> : null}
      {environments?.error && !envs ? (
        <GitlabEnvErrorPanel error={environments.error} onRetry={refreshList} />
      ) : null}
      {environments?.error && envs ? (
        <Alert severity="warning" variant="outlined">
          The last refresh failed ({environments.error.message}); showing the
          environments read before.
        </Alert>
      ) : null}
      {envs && envs.length === 0 ? (
        <Alert severity="info" variant="outlined">
          <AlertTitle>No environments</AlertTitle>
          GitLab has no environments for this project
          {environments?.value?.project
            ? ` (${environments.value.project.fullPath})`
            : ''}
          , or the entity’s gitlab-env/environments and gitlab-env/tiers
          annotations filter them all out. Environments appear once a CI/CD job
          deploys with an <code>environment:</code> keyword.
        </Alert>
      ) : null}
      {envs && envs.length > 0 ? (
        <EnvironmentGrid
          environments={envs}
          resources={resources}
          selectedSlug={selectedSlug}
          onOpen={open}
          now={now || Date.now()}
        />
      ) : null}
      <div>
        {selected ? (
          <EnvironmentResources
            key={selected.slug}
            entity={entityRef}
            environment={selected}
            polled={resources.get(selected.slug)}
            live={selectedLive}
            paused={paused}
            pollIntervalMs={refreshIntervalMs}
            onRetry={refreshAll}
            now={now || Date.now()}
          />
        ) : null}
        {envs && selectedSlug && !selected ? (
          <Alert severity="warning" variant="outlined">
            There is no environment “{selectedSlug}” for this entity any more.
          </Alert>
        ) : null}
      </div>
    </Box>
  );
}

function EnvironmentsSkeleton() {
  return (
    <Box
      aria-busy="true"
      aria-label="Loading environments"
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, 264px)',
      }}
    >
      {[0, 1, 2].map(index => (
        <Skeleton
          key={index}
          variant="rounded"
          height={112}
          data-testid="environment-skeleton"
        />
      ))}
    </Box>
  );
}
