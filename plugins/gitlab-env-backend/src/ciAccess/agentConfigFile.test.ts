import { PATTERN_LIMITS } from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { aliasBomb } from '../__testUtils__/hostileValues';
import { GitlabEnvFailure } from '../errors';
import {
  parseAgentConfigFile,
  parseEnvironmentTemplate,
} from './agentConfigFile';

function failureOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof GitlabEnvFailure) return error.detail;
    throw error;
  }
  throw new Error('did not fail');
}

describe('parseAgentConfigFile', () => {
  it('reads ci_access entries with rules', () => {
    expect(
      parseAgentConfigFile(
        'ci_access:\n  groups:\n    - id: acme\n      environments: [a, "b/*"]\n      protected_branches_only: true\n      rules:\n        - if: $X == "1"\n          namespace: n\n        - when: never\n',
        'f',
      ),
    ).toEqual({
      projects: undefined,
      groups: [
        {
          id: 'acme',
          default_namespace: undefined,
          access_as: undefined,
          environments: ['a', 'b/*'],
          protected_branches_only: true,
          resource_management: undefined,
          rules: [
            { if: '$X == "1"', namespace: 'n', when: undefined },
            { if: undefined, namespace: undefined, when: 'never' },
          ],
        },
      ],
      instance: undefined,
    });
    expect(parseAgentConfigFile('', 'f')).toEqual({});
    expect(parseAgentConfigFile('user_access: {}\n', 'f')).toEqual({});
  });

  it.each([
    ['ci_access:\n  projects: nope\n', 2, 'ci_access.projects must be a list'],
    [
      'ci_access:\n  projects:\n    - default_namespace: x\n',
      3,
      'ci_access.projects[0].id is required',
    ],
    [
      'ci_access:\n  groups:\n    - id: a\n      protected_branches_only: "yes"\n',
      4,
      'protected_branches_only must be true or false',
    ],
    [
      'ci_access:\n  groups:\n    - id: a\n      rules:\n        - if: [1]\n',
      5,
      'rules[0].if must be a string',
    ],
    [
      'ci_access:\n  groups:\n    - id: a\n    - id: b\n      environments: {x: 1}\n',
      5,
      'environments must be a list',
    ],
    ['a: 1\na: 2\n', 2, 'is not valid YAML'],
    [
      'ci_access:\n  projects:\n  - id: "unterminated\n',
      4, // where the string runs out
      'is not valid YAML',
    ],
  ])('reports %j at line %i', (text, line, message) => {
    const detail = failureOf(() =>
      parseAgentConfigFile(
        text,
        'acme/infra: .gitlab/agents/a/config.yaml@main',
      ),
    );
    expect(detail).toMatchObject({
      code: 'AGENT_CONFIG_INVALID',
      line,
      file: 'acme/infra: .gitlab/agents/a/config.yaml@main',
    });
    expect(detail.message).toContain(message);
  });
});

describe('bounded reads of hostile files', () => {
  it('refuses a YAML alias bomb as AGENT_CONFIG_INVALID, without expanding it', () => {
    const detail = failureOf(() => parseAgentConfigFile(aliasBomb(), 'f'));
    expect(detail).toMatchObject({ code: 'AGENT_CONFIG_INVALID', file: 'f' });
    expect(detail.message).toContain('alias bomb');
    expect(
      failureOf(() => parseEnvironmentTemplate(aliasBomb(), 't')),
    ).toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
  });

  it('keeps the few aliases a real file uses', () => {
    const ok =
      'envs: &envs [staging, "review/*"]\nci_access:\n  projects:\n    - id: a\n      environments: *envs\n    - id: b\n      environments: *envs\n';
    expect(
      parseAgentConfigFile(ok, 'f').projects?.map(p => p.environments),
    ).toEqual([
      ['staging', 'review/*'],
      ['staging', 'review/*'],
    ]);
  });

  it('refuses an environment wildcard past the pattern limit, with its line', () => {
    const detail = failureOf(() =>
      parseAgentConfigFile(
        `ci_access:\n  projects:\n    - id: a\n      environments:\n        - "${'a*'.repeat(
          PATTERN_LIMITS.maxPatternLength,
        )}"\n`,
        'f',
      ),
    );
    expect(detail).toMatchObject({ code: 'AGENT_CONFIG_INVALID', line: 5 });
    expect(detail.message).toContain(
      `at most ${PATTERN_LIMITS.maxPatternLength}`,
    );
  });
});

describe('parseEnvironmentTemplate', () => {
  it('reads the Namespace name and delete_resources', () => {
    expect(
      parseEnvironmentTemplate(
        'objects:\n  - apiVersion: v1\n    kind: Namespace\n    metadata:\n      name: "{{ .environment.slug }}"\ndelete_resources: on_stop\n',
        't',
      ),
    ).toEqual({
      namespaceTemplate: '{{ .environment.slug }}',
      deleteResources: 'on_stop',
    });
    expect(parseEnvironmentTemplate('objects: []\n', 't')).toEqual({
      namespaceTemplate: undefined,
      deleteResources: 'never',
    });
    expect(
      failureOf(() =>
        parseEnvironmentTemplate('delete_resources: sometimes\n', 't'),
      ),
    ).toMatchObject({ line: 1 });
  });
});
