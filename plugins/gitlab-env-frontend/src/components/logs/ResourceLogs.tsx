import * as React from 'react';
import { useCallback, useMemo } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  KubernetesObject,
  ResourceGraph,
  ResourceNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Typography from '@mui/material/Typography';
import { gitlabEnvApiRef } from '../../api';
import { podsUnder } from '../../view/actionTarget';
import { useEnvironmentScope } from '../actions/EnvironmentScope';
import { LogViewer, OpenLogs } from './LogViewer';

/** The logs tab of a Pod's drawer, or of a workload's with its pods to pick from. */
export function ResourceLogs({
  node,
  graph,
  objects,
}: {
  node: ResourceNode;
  graph: ResourceGraph;
  objects: ReadonlyMap<string, KubernetesObject>;
}) {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const podNodes = useMemo(() => podsUnder(node, graph), [node, graph]);
  const pods = useMemo(
    () =>
      podNodes.map(pod => ({
        name: pod.name,
        namespace: pod.namespace,
        object: objects.get(pod.id),
      })),
    [podNodes, objects],
  );
  const openLogs: OpenLogs = useCallback(
    async (source, query, handlers, signal) => {
      if (!scope) return;
      await api.streamPodLogs(
        scope.entity,
        scope.environmentSlug,
        {
          ...query,
          pod: source.pod,
          namespace: source.namespace,
          container: source.container || undefined,
        },
        handlers,
        { signal },
      );
    },
    [api, scope],
  );
  if (!scope) {
    return (
      <Typography variant="body2" color="text.secondary">
        Logs are not available here.
      </Typography>
    );
  }
  return <LogViewer pods={pods} openLogs={openLogs} />;
}

/** Kinds whose drawer has a Logs tab: a Pod, and the workloads that own pods. */
export function hasLogs(node: ResourceNode): boolean {
  return (
    (node.kind === 'Pod' && !node.group) ||
    (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(
      node.kind,
    ) &&
      node.group === 'apps') ||
    (node.kind === 'Job' && node.group === 'batch')
  );
}
