import { GitlabEnvError } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type { StringPool } from './stringPool';

/** A warning of one read, with the namespace it concerns when the read spans several. */
export type WarningSink = (warning: GitlabEnvError, namespace?: string) => void;

/**
 * The bounds of one environment read (or one cluster-wide read): pages per
 * list, objects in all, where warnings go, and the signal that ends it (its
 * deadline, or every reader having gone), and where the short string
 * values of the objects read are pooled (an informer's list of what it does
 * not hold yet: see InformerOptions.list).
 */
export class ReadBounds {
  private taken = 0;
  /** Set once an object was refused for lack of budget. */
  exceeded = false;

  constructor(
    readonly maxPagesPerList: number,
    readonly maxObjects: number,
    readonly warn: WarningSink,
    readonly signal?: AbortSignal,
    readonly strings?: StringPool,
  ) {}

  /** Takes room for one more object; false (and `exceeded`) when there is none. */
  take(): boolean {
    if (this.taken >= this.maxObjects) {
      this.exceeded = true;
      return false;
    }
    this.taken += 1;
    return true;
  }

  get objectsTaken(): number {
    return this.taken;
  }
}
