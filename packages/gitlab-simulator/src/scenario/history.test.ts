import { ScenarioProject } from './types';
import { commitIdOf, linearHistory, loadHistory } from './history';
import { loadDefaultScenario } from './load';

const now = new Date('2026-11-22T12:00:00Z');

function project(): ScenarioProject {
  return {
    id: 7,
    fullPath: 'acme/app',
    name: 'app',
    visibility: 'private',
    defaultBranch: 'main',
    environments: [],
    files: { 'README.md': 'app\n' },
    repository: { commits: new Map(), branches: {}, tags: {} },
    mergeRequests: [],
  };
}

const HISTORY = {
  main: [
    { id: 'aaaa0001', title: 'Initial', author: 'alice', age: '10d' },
    { mr: 3, age: '5d' },
    { id: 'aaaa0002', title: 'Release 1.1', age: '4d', tag: 'v1.1' },
  ],
  mergeRequests: [
    {
      iid: 3,
      title: 'Add a feature',
      author: 'bob',
      branch: 'feature',
      state: 'merged',
      mergedBy: 'alice',
      age: '7d',
      commits: [
        {
          id: 'bbbb0001',
          title: 'Feature',
          age: '6d',
          files: { 'f.txt': 'f\n' },
        },
      ],
    },
    {
      iid: 4,
      title: 'Work in progress',
      author: 'carol',
      branch: 'wip',
      age: '2d',
      from: 'v1.1',
      commits: [{ id: 'cccc0001', title: 'WIP', age: '1d' }],
    },
  ],
};

describe('repository histories of scenarios (scenario/history.ts)', () => {
  it('builds the default branch with merge commits, tags, open branches and merge requests', () => {
    const { repository, mergeRequests } = loadHistory(HISTORY, project(), now);
    const main = repository.branches.main;
    expect(main).toBe(commitIdOf('aaaa0002'));
    expect(repository.tags).toEqual({ 'v1.1': main });
    const release = repository.commits.get(main)!;
    const merge = repository.commits.get(release.parents[0])!;
    expect(merge.parents).toEqual([
      commitIdOf('aaaa0001'),
      commitIdOf('bbbb0001'),
    ]);
    expect(merge.author).toBe('alice');
    expect(merge.message).toBe(
      "Merge branch 'feature' into 'main'\n\nAdd a feature\n\nSee merge request acme/app!3\n",
    );
    expect(merge.changes).toEqual({ 'f.txt': 'f\n' });
    expect(repository.branches).toMatchObject({ wip: commitIdOf('cccc0001') });
    // A merged source branch is deleted.
    expect(repository.branches.feature).toBeUndefined();
    expect(
      mergeRequests.map(mr => [
        mr.iid,
        mr.state,
        mr.mergeCommitSha,
        mr.baseSha,
      ]),
    ).toEqual([
      [3, 'merged', merge.id, commitIdOf('aaaa0001')],
      [4, 'opened', undefined, main],
    ]);
    expect(mergeRequests[0].id).toBe(7003);
  });

  it('refuses a history that does not hold together, naming the project', () => {
    expect(() =>
      loadHistory({ main: [{ title: 'x' }, { mr: 9 }] }, project(), now),
    ).toThrow(/acme\/app: main entry mr: 9 needs a merged merge request/);
    expect(() =>
      loadHistory(
        {
          main: [{ title: 'x' }],
          mergeRequests: [{ iid: 1, branch: 'b', from: 'nope' }],
        },
        project(),
        now,
      ),
    ).toThrow(/"nope" names no single commit/);
  });

  it('gives a project without a history a linear one through its deployed commits', () => {
    const sha = commitIdOf('dddd0001');
    const repository = linearHistory(
      project(),
      [
        { sha, ref: 'v2', tag: true, createdAt: '2026-11-20T10:00:00Z' },
        { sha, ref: 'main', createdAt: '2026-11-21T10:00:00Z' },
      ],
      now,
    );
    expect(repository.branches.main).toBe(sha);
    expect(repository.tags).toEqual({ v2: sha });
    expect(repository.commits.get(sha)!.parents).toHaveLength(1);
  });

  it('holds every deployed commit of the default scenario and marks tag deployments', () => {
    const scenario = loadDefaultScenario();
    for (const p of scenario.projects) {
      for (const env of p.environments) {
        for (const d of env.deployments) {
          expect(p.repository.commits.has(d.sha)).toBe(true);
          expect(d.tag).toBe(p.repository.tags[d.ref] !== undefined);
        }
      }
    }
    const ids = scenario.projects.flatMap(p =>
      p.environments.flatMap(e => e.deployments),
    );
    // Global ids follow creation time, as GitLab's sequences do.
    const byId = [...ids].sort((a, b) => a.id - b.id);
    byId
      .slice(1)
      .forEach((d, i) => expect(d.createdAt >= byId[i].createdAt).toBe(true));
    expect(new Set(ids.map(d => d.job.id)).size).toBe(ids.length);
  });
});
