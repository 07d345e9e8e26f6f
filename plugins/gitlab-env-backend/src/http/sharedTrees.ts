import {
  LiveTree,
  TreePatch,
  TreeSnapshot,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import type {
  LiveEnvironment,
  LiveEnvironmentEvent,
} from '../assembling/LiveEnvironment';

/**
 * The compact tree of one live environment (LiveTree), shared by every
 * viewer that asked for the tree form: it follows the environment's events
 * from the moment the first such viewer came, as the environment's first
 * listener of them, so each patch event's tree patch is computed once, in
 * order, and kept with the event for viewers that resume. The tree marks
 * and counts the drift the environment computed for each state.
 */
export class SharedTree {
  private readonly tree: LiveTree;
  /** Per patch event: its tree patch, or null when it changed nothing drawn. */
  private readonly patches = new WeakMap<
    LiveEnvironmentEvent,
    TreePatch | null
  >();
  /** The snapshot of the environment's last state (every change makes a new one). */
  private memo?: { response: object; snapshot: TreeSnapshot };

  private constructor(private readonly environment: LiveEnvironment) {
    // The environment's state now (flushed), then every event after it.
    this.tree = new LiveTree(environment.snapshot());
    environment.subscribe(event => this.follow(event));
  }

  private follow(event: LiveEnvironmentEvent) {
    if (event.type === 'patch') {
      this.patches.set(
        event,
        this.tree.apply(event.patch, event.drift) ?? null,
      );
    } else if (event.type === 'reset') {
      this.tree.reset(this.environment.snapshot());
    }
  }

  /**
   * The tree patch of a patch event: null when it changed nothing the page
   * draws, undefined for an event from before the tree followed the
   * environment (the viewer needs a snapshot).
   */
  patchOf(event: LiveEnvironmentEvent): TreePatch | null | undefined {
    return this.patches.get(event);
  }

  /**
   * The whole tree now, the same object for viewers joining one state of
   * the environment (its shared encoding is kept by it).
   */
  snapshot(): TreeSnapshot {
    // Flushed first: what the environment applies reaches the tree.
    const response = this.environment.snapshot();
    if (this.memo?.response !== response)
      this.memo = { response, snapshot: this.tree.snapshot(response) };
    return this.memo.snapshot;
  }

  private static readonly shared = new WeakMap<LiveEnvironment, SharedTree>();

  /** The environment's shared tree, started now if no viewer asked for one yet. */
  static of(environment: LiveEnvironment): SharedTree {
    let shared = SharedTree.shared.get(environment);
    if (!shared) {
      shared = new SharedTree(environment);
      SharedTree.shared.set(environment, shared);
    }
    return shared;
  }
}
