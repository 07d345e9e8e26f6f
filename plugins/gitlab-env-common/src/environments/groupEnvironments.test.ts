import { GitlabEnvironment } from '../types';
import {
  environmentFolder,
  groupEnvironments,
  nameInFolder,
} from './groupEnvironments';

const env = (
  name: string,
  tier: GitlabEnvironment['tier'],
  folder?: string,
): GitlabEnvironment => ({
  id: name,
  name,
  slug: name.replace(/\W/g, '-'),
  tier,
  state: 'available',
  folder,
});

describe('groupEnvironments', () => {
  it('puts production first and gathers each folder where its first member goes', () => {
    const groups = groupEnvironments([
      env('review/feature-b', 'development', 'review'),
      env('staging', 'staging'),
      env('production/eu-region', 'production'),
      env('review/feature-a', 'development', 'review'),
      env('production/us-region', 'production'),
      env('canary', 'production'),
    ]);
    expect(
      groups.map(g => [g.folder, g.environments.map(e => e.name)]),
    ).toEqual([
      [undefined, ['canary']],
      ['production', ['production/eu-region', 'production/us-region']],
      [undefined, ['staging']],
      ['review', ['review/feature-a', 'review/feature-b']],
    ]);
  });

  it('reads the folder from GitLab, else from the name', () => {
    expect(environmentFolder(env('review/x', 'development', 'review'))).toBe(
      'review',
    );
    expect(environmentFolder(env('production/eu', 'production'))).toBe(
      'production',
    );
    expect(environmentFolder(env('staging', 'staging'))).toBeUndefined();
    expect(environmentFolder(env('/odd', 'other'))).toBeUndefined();
    expect(nameInFolder(env('production/eu', 'production'))).toBe('eu');
    expect(nameInFolder(env('staging', 'staging'))).toBe('staging');
  });
});
