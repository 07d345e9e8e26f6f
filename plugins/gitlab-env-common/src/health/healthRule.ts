import { HealthAssessment, KubernetesObject } from '../types';

/**
 * A health rule: the assessment of one object of the kinds it is registered
 * for, or undefined when the object carries no health. It must not throw
 * (a throw reads as Unknown with the error's text).
 *
 * @public
 */
export type HealthRule = (
  obj: KubernetesObject,
) => HealthAssessment | undefined;
