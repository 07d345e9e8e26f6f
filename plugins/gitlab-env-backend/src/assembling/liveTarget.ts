import { GitlabEnvironment } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { ClusterAccess } from '../reading/clusterSources';
import type { ListableKind } from '../reading/discovery';
import type { Judging } from './environmentErrors';

/**
 * An environment located for live updates (see GitlabEnvironmentsService.locateLive).
 * Not exported from the package; no release tag, so the type declarations
 * keep it for the modules that import it.
 */
export interface LiveTarget {
  entityRef: string;
  environment: GitlabEnvironment;
  labelSelector?: string;
  /** What the environment's read depends on: environments with one key share one live state. */
  readKey: string;
  /** `host|agentId`: watches are shared and capped per agent. */
  agentKey: string;
  host: string;
  /** The kinds watched (or polled) in the namespace: namespaced ones only. */
  kinds: ListableKind[];
  /** Every discovered kind, cluster-scoped ones included: what a Flux object names is read through these. */
  allKinds?: ListableKind[];
  /** How the cluster is reached: KAS (watched) or a backend module's source (polled). */
  access: ClusterAccess;
  judging: Judging;
}
