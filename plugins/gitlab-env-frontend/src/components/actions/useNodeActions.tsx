import * as React from 'react';
import { useState } from 'react';
import {
  EnvironmentAction,
  EnvironmentActionResponse,
  KubernetesObject,
  TreeGraph,
  TreeNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import {
  actionTargetOf,
  autoscalerOf,
  offeredActions,
} from '../../view/actionTarget';
import { ActionDialog } from './ActionDialog';
import { useEnvironmentScope } from './EnvironmentScope';
import {
  Decisions,
  refusalReason,
  useAllowedActions,
} from './useAllowedActions';

export interface OfferedAction {
  action: EnvironmentAction;
  allowed: boolean;
  /** Why not, when not allowed. */
  reason?: string;
}

/**
 * The actions one node offers with what the user may do, the confirmation
 * dialog of the chosen one, and the result once it ran (the environment is
 * read again right after a write). Shared by the drawer (which passes the
 * object it read) and the graph's menu (whose dialog reads it). A node the
 * environment does not own (`readOnly`, from the backend's ownership rule)
 * offers its actions disabled with that reason at once, without asking
 * the backend what the user may do: it refuses them all for that reason.
 */
export function useNodeActions(
  node: TreeNode | undefined,
  graph: TreeGraph,
  object?: KubernetesObject,
) {
  const scope = useEnvironmentScope();
  const target = node && scope ? actionTargetOf(node) : undefined;
  const readOnly = node?.readOnly;
  const { decisions, loading, error } = useAllowedActions(
    readOnly ? undefined : target,
  );
  const [chosen, setChosen] = useState<EnvironmentAction>();
  const [result, setResult] = useState<EnvironmentActionResponse>();

  const offered: OfferedAction[] = target
    ? offeredActions(target, node!).map(action =>
        readOnly
          ? { action, allowed: false, reason: readOnly }
          : decide(action, decisions, loading, error),
      )
    : [];
  const done = (response: EnvironmentActionResponse) => {
    setChosen(undefined);
    setResult(response);
    scope?.refresh();
  };
  const elements = (
    <>
      {chosen && target && node ? (
        <ActionDialog
          action={chosen}
          target={target}
          node={node}
          object={object}
          autoscaler={
            chosen === 'workload.scale' ? autoscalerOf(node, graph) : undefined
          }
          onClose={() => setChosen(undefined)}
          onDone={done}
        />
      ) : null}
      <Snackbar
        open={Boolean(result)}
        autoHideDuration={8000}
        onClose={() => setResult(undefined)}
      >
        <Alert
          severity={result?.warnings?.length ? 'warning' : 'success'}
          onClose={() => setResult(undefined)}
        >
          {result?.message}
          {result?.warnings?.map(warning => (
            <div key={warning}>{warning}</div>
          ))}
        </Alert>
      </Snackbar>
    </>
  );
  return {
    offered,
    loading,
    /** Whether the user may read this Pod's logs, and why not; undefined for other kinds. */
    logs: readOnly
      ? { allowed: false, reason: readOnly }
      : decisions?.['pod.logs'],
    choose: setChosen,
    elements,
  };
}

function decide(
  action: EnvironmentAction,
  decisions: Decisions | undefined,
  loading: boolean,
  error: Error | undefined,
): OfferedAction {
  const decision = decisions?.[action];
  const reason = refusalReason(
    { loading, error, decision },
    decision ? 'Not allowed.' : 'The backend did not allow it.',
  );
  return reason === undefined
    ? { action, allowed: true }
    : { action, allowed: false, reason };
}
