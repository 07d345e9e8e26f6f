import {
  GitlabEnvironment,
  HealthSummary,
  KubernetesObject,
  ResourceNode,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { LocatedEntity } from '../locating/EnvironmentLocator';

/** The environment an observation is about. */
export interface ObservedEnvironment {
  /** The configured instance (gitlabEnv.instances[].host). */
  host: string;
  environment: GitlabEnvironment;
}

/**
 * What the assembler tells an observer each time it assembled an
 * environment: a live environment after each batch of watch events, a
 * read after it listed every kind. The objects are the batch's (live) or
 * all of them (a read); nothing is read again for the observer.
 */
export interface EnvironmentObservation {
  target: ObservedEnvironment;
  /** Objects added or changed (`modified`: an existing object changed). Deletions are not passed. */
  objects: ReadonlyArray<{ object: KubernetesObject; modified: boolean }>;
  /** The environment's health after them (partial when the data was). */
  health: HealthSummary;
  /** The graph's nodes, built only when asked (to name a health change's cause). */
  nodes: () => readonly ResourceNode[];
  at: string;
  source: 'watch' | 'read';
}

/**
 * Sees every assembled change of every environment (the timeline records
 * them). Called synchronously on the assembler's path: it must return at
 * once and never throw.
 */
export interface EnvironmentObserver {
  observe(observation: EnvironmentObservation): void;
  /** An entity was located: its environments and their last deployments. */
  located?(entityRef: string, located: LocatedEntity): void;
}

/** Calls an observer without letting it fail the assembler. */
export function notify(
  observer: EnvironmentObserver | undefined,
  observation: () => EnvironmentObservation,
  onError: (error: unknown) => void,
): void {
  if (!observer) return;
  try {
    observer.observe(observation());
  } catch (error) {
    onError(error);
  }
}
