import * as React from 'react';
import { useCallback, useMemo } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import {
  ResourceNode,
  TreeGraph,
  TreeNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Typography from '@mui/material/Typography';
import { gitlabEnvApiRef } from '../../api';
import { podsUnder } from '../../view/actionTarget';
import { useEnvironmentScope } from '../actions/EnvironmentScope';
import {
  EnvironmentObjectState,
  useEnvironmentObject,
} from '../drawer/useEnvironmentObject';
import { LogViewer, OpenLogs } from './LogViewer';

/**
 * The logs tab of a Pod's drawer, or of a workload's with its pods to pick
 * from. The containers to pick come from the first pod's object (a
 * workload's pods share their template), read when the tab opens; the
 * log is asked once that answer is in, so it is asked once.
 */
export function ResourceLogs({
  node,
  graph,
  details,
}: {
  node: TreeNode;
  graph: TreeGraph;
  /** The drawer's object of `node`, when it already asked for it. */
  details?: EnvironmentObjectState;
}) {
  const api = useApi(gitlabEnvApiRef);
  const scope = useEnvironmentScope();
  const podNodes = useMemo(() => podsUnder(node, graph), [node, graph]);
  const own = details !== undefined && podNodes[0]?.id === node.id;
  const asked = useEnvironmentObject(own ? undefined : podNodes[0]);
  const firstPod = own ? details : asked;
  const first = firstPod.value?.object;
  const pods = useMemo(
    () =>
      podNodes.map((pod, index) => ({
        name: pod.name,
        namespace: pod.namespace,
        object: index === 0 ? first : undefined,
      })),
    [podNodes, first],
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
  if (firstPod.loading) {
    return (
      <Typography variant="body2" color="text.secondary">
        Reading the pod's containers…
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
