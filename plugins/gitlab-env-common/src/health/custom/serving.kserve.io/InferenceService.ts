import { KubernetesObject } from '../../../types';
import { knativeStyleHealth } from '../knative';

const READY_TYPES = new Set([
  'IngressReady',
  'PredictorConfigurationReady',
  'PredictorReady',
  'PredictorRouteReady',
]);

/**
 * KServe InferenceService (Argo CD's serving.kserve.io/InferenceService):
 * Knative's way (three of its readiness conditions True, none False or
 * Unknown), over KServe's condition types.
 */
export const inferenceServiceHealth = (obj: KubernetesObject) =>
  knativeStyleHealth(obj, READY_TYPES, 'Inference Service is healthy.');
