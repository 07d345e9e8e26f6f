import { createHash } from 'crypto';
import { structuredPatch } from 'diff';
import {
  ScenarioCommit,
  ScenarioProject,
  ScenarioRepository,
} from '../scenario/types';

/**
 * A project's Git repository as GitLab's APIs read it: refs (branches,
 * tags, full or abbreviated commit ids), each commit's tree, ancestry,
 * merge bases, the commits between two commits and the diffs between two
 * trees, with GitLab's diff limits (doc/administration/diff_limits.md).
 * Diffs are unified hunks without file headers, as GitLab's `diff` fields
 * hold them, made with jsdiff.
 */

/** Git resolves an abbreviated object name of at least 4 hex digits; GitLab's routes ask for 7+ in practice. */
const MIN_SHORT_ID = 7;

/** Diff limits on GitLab.com and the defaults elsewhere (doc/administration/diff_limits.md). */
export const DIFF_LIMITS = {
  /** A file's patch above this is `too_large` and sent without its diff. */
  maxPatchBytes: 200 * 1024,
  /** Files and lines of one comparison; past them the rest is left out (`overflow`). */
  maxFiles: 1000,
  maxLines: 50_000,
};

export interface FileDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  diff: string;
  too_large: boolean;
  collapsed: boolean;
}

type Tree = ReadonlyMap<string, string>;

export class Repository {
  private readonly ancestry = new Map<string, Set<string>>();

  /**
   * `baseFiles` is read on every tree: tests (and the backend's) edit a
   * project's files on the running simulator, e.g. to remove an agent's
   * configuration file.
   */
  constructor(
    private readonly data: ScenarioRepository,
    private readonly baseFiles: () => Record<string, string>,
  ) {}

  get branches(): Readonly<Record<string, string>> {
    return this.data.branches;
  }

  get tags(): Readonly<Record<string, string>> {
    return this.data.tags;
  }

  commit(id: string): ScenarioCommit | undefined {
    return this.data.commits.get(id);
  }

  /**
   * A ref as Git resolves it: `refs/heads/x`, `refs/tags/x`, a branch, a
   * tag (branches first), `HEAD` (the default branch), or a full or
   * abbreviated (7+) unambiguous commit id.
   */
  resolve(ref: string, defaultBranch: string): string | undefined {
    if (ref === 'HEAD') return this.data.branches[defaultBranch];
    if (ref.startsWith('refs/heads/'))
      return this.data.branches[ref.slice('refs/heads/'.length)];
    if (ref.startsWith('refs/tags/'))
      return this.data.tags[ref.slice('refs/tags/'.length)];
    const named = this.data.branches[ref] ?? this.data.tags[ref];
    if (named) return named;
    const hex = ref.toLowerCase();
    if (!/^[0-9a-f]+$/.test(hex) || hex.length < MIN_SHORT_ID) return undefined;
    if (hex.length === 40) return this.data.commits.has(hex) ? hex : undefined;
    const found = [...this.data.commits.keys()].filter(id =>
      id.startsWith(hex),
    );
    return found.length === 1 ? found[0] : undefined;
  }

  /** The commit and everything reachable from it. */
  ancestors(id: string): Set<string> {
    let set = this.ancestry.get(id);
    if (set) return set;
    set = new Set<string>();
    const stack = [id];
    while (stack.length) {
      const next = stack.pop()!;
      if (set.has(next)) continue;
      set.add(next);
      stack.push(...(this.data.commits.get(next)?.parents ?? []));
    }
    this.ancestry.set(id, set);
    return set;
  }

  isAncestor(ancestor: string, of: string): boolean {
    return this.ancestors(of).has(ancestor);
  }

  /** `git merge-base a b`: the newest common ancestor. */
  mergeBase(a: string, b: string): string | undefined {
    const mine = this.ancestors(a);
    const common = [...this.ancestors(b)].filter(id => mine.has(id));
    // The best common ancestor is one no other common ancestor descends from.
    return common
      .filter(
        id => !common.some(other => other !== id && this.isAncestor(id, other)),
      )
      .sort((x, y) => this.time(y) - this.time(x))[0];
  }

  private time(id: string): number {
    return Date.parse(this.data.commits.get(id)?.committedAt ?? '') || 0;
  }

  /** `git log from..to`, oldest first: the commits `to` has and `from` has not. */
  commitsBetween(from: string | undefined, to: string): ScenarioCommit[] {
    const excluded = from ? this.ancestors(from) : new Set<string>();
    return [...this.ancestors(to)]
      .filter(id => !excluded.has(id))
      .map(id => this.data.commits.get(id)!)
      .sort(
        (a, b) =>
          a.committedAt.localeCompare(b.committedAt) ||
          a.id.localeCompare(b.id),
      );
  }

  /** The files at a commit: the base files, then each commit's changes along its first parents. */
  tree(id: string): Tree {
    // Iterative over the first-parent chain, so long histories do not recurse deeply.
    const chain: ScenarioCommit[] = [];
    let cursor: string | undefined = id;
    while (cursor) {
      const commit = this.data.commits.get(cursor);
      if (!commit) break;
      chain.push(commit);
      cursor = commit.parents[0];
    }
    const files = new Map<string, string>(Object.entries(this.baseFiles()));
    for (const commit of chain.reverse()) {
      for (const [path, content] of Object.entries(commit.changes)) {
        if (content === null) files.delete(path);
        else files.set(path, content);
      }
    }
    return files;
  }

  /** The newest commit at or before `id` (first parents) whose changes touched `path`. */
  lastCommitTouching(path: string, id: string): string | undefined {
    let cursor: string | undefined = id;
    while (cursor) {
      const commit = this.data.commits.get(cursor);
      if (!commit) return undefined;
      if (path in commit.changes) return commit.id;
      cursor = commit.parents[0];
    }
    return undefined;
  }

  /** Diffs from one tree to another, by path, within GitLab's limits. */
  diff(
    from: string | undefined,
    to: string,
  ): { diffs: FileDiff[]; overflow: boolean } {
    const before = from ? this.tree(from) : new Map<string, string>();
    const after = this.tree(to);
    const paths = [...new Set([...before.keys(), ...after.keys()])]
      .filter(path => before.get(path) !== after.get(path))
      .sort();
    const diffs: FileDiff[] = [];
    let lines = 0;
    let overflow = false;
    for (const path of paths) {
      if (diffs.length >= DIFF_LIMITS.maxFiles) {
        overflow = true;
        break;
      }
      const diff = fileDiff(path, before.get(path), after.get(path));
      lines += diff.diff.split('\n').length;
      if (lines > DIFF_LIMITS.maxLines) {
        overflow = true;
        break;
      }
      diffs.push(diff);
    }
    return { diffs, overflow };
  }
}

/** One file's diff as GitLab's Diff entity holds it: hunks only, `\ No newline` marks kept. */
export function fileDiff(
  path: string,
  before: string | undefined,
  after: string | undefined,
): FileDiff {
  const patch = structuredPatch(path, path, before ?? '', after ?? '', '', '', {
    context: 3,
  });
  const text = patch.hunks
    .map(
      hunk =>
        `@@ -${hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart}${
          hunk.oldLines === 1 ? '' : `,${hunk.oldLines}`
        } +${hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart}${
          hunk.newLines === 1 ? '' : `,${hunk.newLines}`
        } @@\n${hunk.lines.join('\n')}\n`,
    )
    .join('');
  const tooLarge = Buffer.byteLength(text) > DIFF_LIMITS.maxPatchBytes;
  return {
    old_path: path,
    new_path: path,
    a_mode: before === undefined ? '0' : '100644',
    b_mode: after === undefined ? '0' : '100644',
    new_file: before === undefined,
    renamed_file: false,
    deleted_file: after === undefined,
    diff: tooLarge ? '' : text,
    too_large: tooLarge,
    collapsed: false,
  };
}

/** Git's blob id of some content. */
export function blobId(content: string): string {
  return createHash('sha1')
    .update(`blob ${Buffer.byteLength(content)}\0${content}`)
    .digest('hex');
}

const repositories = new WeakMap<ScenarioRepository, Repository>();

/** The repository of a project (one view per repository, so ancestries are computed once). */
export function repositoryOf(project: ScenarioProject): Repository {
  let repository = repositories.get(project.repository);
  if (!repository) {
    repository = new Repository(project.repository, () => project.files);
    repositories.set(project.repository, repository);
  }
  return repository;
}
