import { startTestBackend } from '@backstage/backend-test-utils';
import { mockServices } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
// The example is documentation outside any package; it is tested here, in
// the package whose extension point it uses.
// eslint-disable-next-line @backstage/no-relative-monorepo-imports
import {
  gitlabEnvModuleStrimziHealth,
  strimziKafkaHealth,
} from '../../../examples/health-rules/strimziHealthModule';
import { gitlabEnvPlugin } from './plugin';

const kafka = (conditions: object[]) => ({
  apiVersion: 'kafka.strimzi.io/v1beta2',
  kind: 'Kafka',
  metadata: { name: 'events', namespace: 'kafka' },
  status: { conditions },
});

describe('examples/health-rules/strimziHealthModule.ts', () => {
  it('tells a Kafka being created from a failing one', () => {
    expect(
      strimziKafkaHealth(kafka([{ type: 'Ready', status: 'True' }])),
    ).toEqual({
      status: 'Healthy',
    });
    expect(
      strimziKafkaHealth(
        kafka([
          {
            type: 'NotReady',
            status: 'True',
            reason: 'Creating',
            message: 'deploying',
          },
        ]),
      ),
    ).toEqual({ status: 'Progressing', message: 'deploying' });
    expect(
      strimziKafkaHealth(
        kafka([
          {
            type: 'NotReady',
            status: 'True',
            reason: 'InvalidResourceException',
            message: 'bad listener',
          },
        ]),
      ),
    ).toEqual({ status: 'Degraded', message: 'bad listener' });
    expect(strimziKafkaHealth(kafka([]))).toEqual({
      status: 'Progressing',
      message: 'Waiting for the Strimzi operator',
    });
  });

  it('registers through the extension point, and a second rule for Kafka stops the start', async () => {
    const features = [
      gitlabEnvPlugin,
      catalogServiceMock.factory({ entities: [] }),
      mockServices.rootConfig.factory({
        data: {
          gitlabEnv: {
            instances: [
              {
                host: 'gitlab.example.com',
                baseUrl: 'https://gitlab.example.com',
              },
            ],
            health: {
              rules: [
                {
                  group: 'kafka.strimzi.io',
                  kind: 'Kafka',
                  healthy: [{ condition: 'Ready' }],
                },
              ],
            },
          },
        },
      }),
      gitlabEnvModuleStrimziHealth,
    ];
    await expect(startTestBackend({ features })).rejects.toThrow(
      'Two health rules for kafka.strimzi.io/Kafka: from gitlabEnv.health.rules[0] and from a backend module',
    );
    const backend = await startTestBackend({
      features: [
        features[0],
        features[1],
        gitlabEnvModuleStrimziHealth,
        mockServices.rootConfig.factory({
          data: {
            gitlabEnv: {
              instances: [
                {
                  host: 'gitlab.example.com',
                  baseUrl: 'https://gitlab.example.com',
                },
              ],
            },
          },
        }),
      ],
    });
    await backend.stop();
  });
});
