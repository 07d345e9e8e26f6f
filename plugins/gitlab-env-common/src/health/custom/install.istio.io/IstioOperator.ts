import { HealthAssessment, KubernetesObject } from '../../../types';
import { health } from '../../conditions';
import { statusOf } from '../../../k8s/objects';

/** IstioOperator (Argo CD's install.istio.io/IstioOperator): the overall `status.status`, by name or number. */
export function istioOperatorHealth(obj: KubernetesObject): HealthAssessment {
  switch (statusOf(obj).status) {
    case 0:
    case 'NONE':
      return health('Unknown', 'Component is not present.');
    case 1:
    case 'UPDATING':
      return health(
        'Progressing',
        'Component is being updated to a different version.',
      );
    case 2:
    case 'RECONCILING':
      return health(
        'Progressing',
        'Controller has started but not yet completed reconciliation loop for the component.',
      );
    case 3:
    case 'HEALTHY':
      return health('Healthy', 'Component is healthy.');
    case 4:
    case 'ERROR':
      return health('Degraded', 'Component is in an error state.');
    default:
      return health('Progressing', 'Waiting for Istio Control Plane');
  }
}
