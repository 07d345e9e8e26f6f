import { ScenarioCommit, ScenarioRepository } from '../scenario/types';
import { DIFF_LIMITS, fileDiff, Repository } from './repository';

function commit(
  id: string,
  parents: string[],
  at: string,
  changes: Record<string, string | null> = {},
): ScenarioCommit {
  return {
    id: id.padEnd(40, '0'),
    parents: parents.map(p => p.padEnd(40, '0')),
    title: id,
    message: `${id}\n`,
    author: 'alice',
    authoredAt: at,
    committedAt: at,
    changes,
  };
}

//  a ── b ─────── m (main)
//        \       /
//         c ── d      e (topic, from b)
function repository(): Repository {
  const commits = [
    commit('a1', [], '2026-11-01T00:00:00Z', { 'x.txt': 'one\n' }),
    commit('b1', ['a1'], '2026-11-02T00:00:00Z', { 'x.txt': 'two\n' }),
    commit('c1', ['b1'], '2026-11-03T00:00:00Z', { 'y.txt': 'new\n' }),
    commit('d1', ['c1'], '2026-11-04T00:00:00Z', { 'x.txt': null }),
    commit('e1', ['b1'], '2026-11-05T00:00:00Z', { 'z.txt': 'z\n' }),
    commit('f1', ['b1', 'd1'], '2026-11-06T00:00:00Z', {
      'y.txt': 'new\n',
      'x.txt': null,
    }),
  ];
  const data: ScenarioRepository = {
    commits: new Map(commits.map(c => [c.id, c])),
    branches: { main: 'f1'.padEnd(40, '0'), topic: 'e1'.padEnd(40, '0') },
    tags: { v1: 'b1'.padEnd(40, '0') },
  };
  return new Repository(data, () => ({ 'README.md': 'readme\n' }));
}

const id = (short: string) => short.padEnd(40, '0');

describe('a repository as GitLab reads it (gitlab/repository.ts)', () => {
  it('resolves branches, tags, refs/… names, HEAD and unambiguous ids of 7+ digits', () => {
    const repo = repository();
    expect(repo.resolve('main', 'main')).toBe(id('f1'));
    expect(repo.resolve('HEAD', 'main')).toBe(id('f1'));
    expect(repo.resolve('refs/heads/topic', 'main')).toBe(id('e1'));
    expect(repo.resolve('refs/tags/v1', 'main')).toBe(id('b1'));
    expect(repo.resolve('c100000', 'main')).toBe(id('c1'));
    // Too short, or shared by several commits.
    expect(repo.resolve('c1', 'main')).toBeUndefined();
    expect(repo.resolve('0000000', 'main')).toBeUndefined();
    expect(repo.resolve('nope', 'main')).toBeUndefined();
  });

  it('walks ancestry: commits between two commits, merge bases', () => {
    const repo = repository();
    expect(repo.commitsBetween(id('b1'), id('f1')).map(c => c.title)).toEqual([
      'c1',
      'd1',
      'f1',
    ]);
    expect(repo.commitsBetween(id('f1'), id('b1'))).toEqual([]);
    expect(repo.mergeBase(id('e1'), id('f1'))).toBe(id('b1'));
    expect(repo.mergeBase(id('d1'), id('f1'))).toBe(id('d1'));
  });

  it('builds trees along first parents: a merge commit carries what its branch brought', () => {
    const repo = repository();
    expect(Object.fromEntries(repo.tree(id('f1')))).toEqual({
      'README.md': 'readme\n',
      'y.txt': 'new\n',
    });
    expect(repo.tree(id('e1')).get('x.txt')).toBe('two\n');
    expect(repo.lastCommitTouching('y.txt', id('f1'))).toBe(id('f1'));
    expect(repo.lastCommitTouching('README.md', id('f1'))).toBeUndefined();
  });

  it('diffs trees as GitLab holds them: hunks without file headers, Git’s counts', () => {
    const repo = repository();
    const { diffs, overflow } = repo.diff(id('b1'), id('e1'));
    expect(overflow).toBe(false);
    expect(diffs).toEqual([
      {
        old_path: 'z.txt',
        new_path: 'z.txt',
        a_mode: '0',
        b_mode: '100644',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
        diff: '@@ -0,0 +1 @@\n+z\n',
        too_large: false,
        collapsed: false,
      },
    ]);
    expect(fileDiff('x', 'one\n', 'two\n').diff).toBe(
      '@@ -1 +1 @@\n-one\n+two\n',
    );
    expect(fileDiff('x', 'a\n', undefined)).toMatchObject({
      deleted_file: true,
      b_mode: '0',
      diff: '@@ -1 +0,0 @@\n-a\n',
    });
  });

  it('applies GitLab’s diff limits: a patch above 200 KB is too_large and empty', () => {
    const big = `${'x'.repeat(100)}\n`.repeat(3000);
    const diff = fileDiff('big.txt', undefined, big);
    expect(Buffer.byteLength(big)).toBeGreaterThan(DIFF_LIMITS.maxPatchBytes);
    expect(diff).toMatchObject({ too_large: true, diff: '' });
  });

  it('stops at 1,000 files of one comparison and says it overflowed', () => {
    const files = Object.fromEntries(
      Array.from({ length: 1001 }, (_, i) => [`f${i}.txt`, `${i}\n`]),
    );
    const many = commit('aa', [], '2026-11-01T00:00:00Z', files);
    const repo = new Repository(
      { commits: new Map([[many.id, many]]), branches: {}, tags: {} },
      () => ({}),
    );
    const { diffs, overflow } = repo.diff(undefined, many.id);
    expect(diffs).toHaveLength(DIFF_LIMITS.maxFiles);
    expect(overflow).toBe(true);
  });
});
