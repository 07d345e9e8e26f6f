import { HealthAssessment, KubernetesObject } from '../../types';
import { health } from '../conditions';
import { isRecord, specOf, statusOf } from '../../k8s/objects';

function hasLoadBalancerIngress(obj: KubernetesObject): boolean {
  const lb = statusOf(obj).loadBalancer;
  return isRecord(lb) && Array.isArray(lb.ingress) && lb.ingress.length > 0;
}

/** A LoadBalancer Service is Progressing until its load balancer has an address. */
export function serviceHealth(obj: KubernetesObject): HealthAssessment {
  if (specOf(obj).type === 'LoadBalancer' && !hasLoadBalancerIngress(obj)) {
    return health('Progressing');
  }
  return health('Healthy');
}

/** An Ingress is Progressing until its controller publishes an address. */
export function ingressHealth(obj: KubernetesObject): HealthAssessment {
  return health(hasLoadBalancerIngress(obj) ? 'Healthy' : 'Progressing');
}
