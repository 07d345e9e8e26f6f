import { createHash } from 'crypto';
import { parseAge } from '../cluster/ids';
import {
  ScenarioCommit,
  ScenarioMergeRequest,
  ScenarioProject,
  ScenarioRepository,
} from './types';

/**
 * A project's repository history from its scenario file
 * (`history/<project path>.yaml`):
 *
 * ```yaml
 * main:                       # the default branch, first parent, oldest first
 *   - { title: Initial, author: alice, age: 30d, files: { README.md: "…" } }
 *   - { mr: 41 }              # the merge commit of !41 (merge-commit method)
 *   - { id: 9f1c2e7a, title: Release 4.12.0, author: alice, age: 4h, tag: v4.12.0 }
 * mergeRequests:
 *   - iid: 41
 *     title: Lazy-load images
 *     author: carol
 *     branch: lazy-images
 *     state: merged           # opened | merged | closed
 *     age: 8d                 # opened
 *     mergedBy: alice         # merged: the merge commit's author and time (`age` of its main entry)
 *     from: 1a2b3c4d          # where the branch starts (default: the default branch then)
 *     commits: [{ title: …, age: 7d, files: { src/grid.ts: "…" } }]
 * branches: { hotfix: 3c4d5e6f }
 * ```
 *
 * `files` of a commit are the paths it changes (null deletes); the files
 * under `repositories/<project path>/` are the first commit's tree. An `id`
 * of fewer than 40 hex digits is padded with zeros (as deployment shas are);
 * other commits get ids derived from their content. A merge commit's
 * message is GitLab's ("Merge branch 'x' into 'main'", the title, "See
 * merge request path!iid"); merged source branches are deleted
 * (`should_remove_source_branch`). Deployed commits a project's history
 * does not name are a scenario mistake; a project without a history gets
 * a linear one through its deployed commits.
 */

const MINUTE = 60e3;

export function commitIdOf(text: string): string {
  const hex = String(text).toLowerCase();
  if (!/^[0-9a-f]{1,40}$/.test(hex)) {
    throw new Error(`"${text}" is not a commit id (hex digits)`);
  }
  return hex.padEnd(40, '0');
}

function derivedId(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

interface Builder {
  project: ScenarioProject;
  now: Date;
  commits: Map<string, ScenarioCommit>;
  tags: Record<string, string>;
}

function timeOf(raw: any, fallback: Date, now: Date): Date {
  const age = parseAge(raw?.age);
  return age === undefined ? fallback : new Date(now.getTime() - age);
}

function addCommit(
  builder: Builder,
  raw: any,
  parents: string[],
  at: Date,
  extra: Partial<ScenarioCommit> = {},
): ScenarioCommit {
  const title = String(raw.title ?? extra.title ?? 'Update');
  const id = raw.id
    ? commitIdOf(raw.id)
    : derivedId(
        `${builder.project.fullPath}\n${parents.join(
          ' ',
        )}\n${title}\n${at.toISOString()}`,
      );
  if (builder.commits.has(id)) {
    throw new Error(`${builder.project.fullPath}: commit ${id} twice`);
  }
  const commit: ScenarioCommit = {
    id,
    parents,
    title,
    message: raw.message ?? extra.message ?? `${title}\n`,
    author: String(raw.author ?? extra.author ?? 'root'),
    authoredAt: at.toISOString(),
    committedAt: at.toISOString(),
    changes: { ...(raw.files ?? {}), ...extra.changes },
  };
  builder.commits.set(id, commit);
  if (raw.tag) builder.tags[String(raw.tag)] = id;
  return commit;
}

/** A ref of the history file: a commit id (possibly short), a tag, or a branch built so far. */
function resolve(
  builder: Builder,
  ref: string,
  branches: Record<string, string>,
): string {
  const text = String(ref);
  const byName = builder.tags[text] ?? branches[text];
  if (byName) return byName;
  const matches = [...builder.commits.keys()].filter(id =>
    id.startsWith(text.toLowerCase()),
  );
  if (matches.length !== 1) {
    throw new Error(
      `${builder.project.fullPath}: "${text}" names no single commit of its history`,
    );
  }
  return matches[0];
}

/** Builds a branch of commits after `from`; returns the head. */
function addBranch(
  builder: Builder,
  raws: any[],
  from: string,
  author: string,
): string[] {
  let head = from;
  const ids: string[] = [];
  for (const raw of raws) {
    const parent = builder.commits.get(head)!;
    const at = timeOf(
      raw,
      new Date(Date.parse(parent.committedAt) + MINUTE),
      builder.now,
    );
    head = addCommit(builder, { author, ...raw }, [head], at).id;
    ids.push(head);
  }
  return ids;
}

export function loadHistory(
  raw: any,
  project: ScenarioProject,
  now: Date,
): { repository: ScenarioRepository; mergeRequests: ScenarioMergeRequest[] } {
  const builder: Builder = { project, now, commits: new Map(), tags: {} };
  const branches: Record<string, string> = {};
  const definitions = new Map<number, any>(
    (raw.mergeRequests ?? []).map((mr: any) => [Number(mr.iid), mr]),
  );
  const mergeRequests: ScenarioMergeRequest[] = [];
  const mergeRequest = (
    def: any,
    commits: string[],
    baseSha: string,
    state: ScenarioMergeRequest['state'],
    merged?: { at: Date; commit: string },
  ): ScenarioMergeRequest => {
    const createdAt = timeOf(def, new Date(now.getTime() - 86400e3), now);
    const sha = commits[commits.length - 1] ?? baseSha;
    const last = builder.commits.get(sha)!;
    const closedAt =
      state === 'closed'
        ? timeOf({ age: def.closedAge }, new Date(last.committedAt), now)
        : undefined;
    return {
      id: project.id * 1000 + Number(def.iid),
      iid: Number(def.iid),
      title: String(def.title),
      description: String(def.description ?? ''),
      state,
      sourceBranch: String(def.branch),
      targetBranch: String(def.target ?? project.defaultBranch),
      author: String(def.author ?? 'root'),
      createdAt: createdAt.toISOString(),
      updatedAt: (
        merged?.at ??
        closedAt ??
        new Date(last.committedAt)
      ).toISOString(),
      ...(merged
        ? {
            mergedAt: merged.at.toISOString(),
            mergedBy: String(def.mergedBy ?? def.author ?? 'root'),
            mergeCommitSha: merged.commit,
          }
        : {}),
      ...(closedAt ? { closedAt: closedAt.toISOString() } : {}),
      sha,
      baseSha,
      commits,
    };
  };

  let head: string | undefined;
  for (const entry of raw.main ?? []) {
    const previous = head ? builder.commits.get(head) : undefined;
    const fallback = previous
      ? new Date(Date.parse(previous.committedAt) + MINUTE)
      : new Date(now.getTime() - 365 * 86400e3);
    if (entry.mr === undefined) {
      head = addCommit(
        builder,
        entry,
        head ? [head] : [],
        timeOf(entry, fallback, now),
      ).id;
      continue;
    }
    const def = definitions.get(Number(entry.mr));
    if (!def || (def.state ?? 'opened') !== 'merged' || !head) {
      throw new Error(
        `${project.fullPath}: main entry mr: ${entry.mr} needs a merged merge request defined under mergeRequests and a commit before it`,
      );
    }
    definitions.delete(Number(entry.mr));
    const base = def.from ? resolve(builder, def.from, branches) : head;
    const commits = addBranch(builder, def.commits ?? [], base, def.author);
    const changes = Object.assign(
      {},
      ...commits.map(id => builder.commits.get(id)!.changes),
    );
    const source = String(def.branch);
    const target = project.defaultBranch;
    const title = `Merge branch '${source}' into '${target}'`;
    const merge = addCommit(
      builder,
      { ...entry, author: entry.author ?? def.mergedBy ?? def.author },
      [head, commits[commits.length - 1] ?? base],
      timeOf(entry, fallback, now),
      {
        title,
        message: `${title}\n\n${def.title}\n\nSee merge request ${project.fullPath}!${def.iid}\n`,
        changes,
      },
    );
    head = merge.id;
    mergeRequests.push(
      mergeRequest(def, commits, base, 'merged', {
        at: new Date(merge.committedAt),
        commit: merge.id,
      }),
    );
  }
  if (head) branches[project.defaultBranch] = head;
  for (const [iid, def] of definitions) {
    const state = def.state ?? 'opened';
    if (state === 'merged') {
      throw new Error(
        `${project.fullPath}: merged !${iid} needs an { mr: ${iid} } entry on ${project.defaultBranch}`,
      );
    }
    const base = def.from ? resolve(builder, def.from, branches) : head;
    if (!base)
      throw new Error(`${project.fullPath}: !${iid} has no base commit`);
    const commits = addBranch(builder, def.commits ?? [], base, def.author);
    branches[String(def.branch)] = commits[commits.length - 1] ?? base;
    mergeRequests.push(mergeRequest(def, commits, base, state));
  }
  for (const [name, ref] of Object.entries(raw.branches ?? {})) {
    branches[name] = resolve(builder, String(ref), branches);
  }
  mergeRequests.sort((a, b) => a.iid - b.iid);
  return {
    repository: {
      commits: builder.commits,
      branches,
      tags: builder.tags,
      protectedTags: raw.protectedTags,
    },
    mergeRequests,
  };
}

/**
 * For a project without a history file: a linear default branch through
 * its deployed commits in the order they were first deployed (after an
 * initial commit holding its files), other deployed refs as branches or
 * tags pointing at theirs.
 */
export function linearHistory(
  project: ScenarioProject,
  deployments: Array<{
    sha: string;
    ref: string;
    createdAt: string;
    tag?: boolean;
  }>,
  now: Date,
): ScenarioRepository {
  const builder: Builder = { project, now, commits: new Map(), tags: {} };
  const ordered = [...deployments].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  const first = ordered[0]
    ? new Date(Date.parse(ordered[0].createdAt) - 86400e3)
    : new Date(now.getTime() - 30 * 86400e3);
  let head = addCommit(builder, { title: 'Initial commit' }, [], first).id;
  const branches: Record<string, string> = {};
  for (const deployment of ordered) {
    if (!builder.commits.has(deployment.sha)) {
      head = addCommit(
        builder,
        { id: deployment.sha, title: `Update ${project.name}` },
        [head],
        new Date(Date.parse(deployment.createdAt) - 10 * MINUTE),
      ).id;
    }
    if (deployment.tag) builder.tags[deployment.ref] = deployment.sha;
    else if (deployment.ref !== project.defaultBranch)
      branches[deployment.ref] = deployment.sha;
  }
  branches[project.defaultBranch] = head;
  return { commits: builder.commits, branches, tags: builder.tags };
}
