import type { HealthRule } from '../../healthRule';
import { conditionsOf, health } from '../../conditions';

/**
 * The RabbitMQ messaging topology operator's kinds (Argo CD's
 * rabbitmq.com/{Binding,Exchange,Permission,Policy,Queue,Shovel,User,Vhost}):
 * a Ready condition with the operator's reason; anything else is Unknown.
 * One script per kind in Argo CD, the same but for the noun in the
 * messages (read for Queue and User).
 */
export function rabbitmqTopologyRule(noun: string): HealthRule {
  return obj => {
    for (const c of conditionsOf(obj)) {
      if (c.type !== 'Ready') continue;
      if (c.status === 'True' && c.reason === 'SuccessfulCreateOrUpdate')
        return health('Healthy', `RabbitMQ ${noun} ready`);
      if (c.status === 'False' && c.reason === 'FailedCreateOrUpdate')
        return health(
          'Degraded',
          `RabbitMQ ${noun} failed to be created or updated`,
        );
    }
    return health('Unknown', `RabbitMQ ${noun} status is unknown`);
  };
}

export const RABBITMQ_TOPOLOGY_KINDS: Array<[kind: string, noun: string]> = [
  ['Binding', 'binding'],
  ['Exchange', 'exchange'],
  ['Permission', 'permission'],
  ['Policy', 'policy'],
  ['Queue', 'queue'],
  ['Shovel', 'shovel'],
  ['User', 'user'],
  ['Vhost', 'vhost'],
];
