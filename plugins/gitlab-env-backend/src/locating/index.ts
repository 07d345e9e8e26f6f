export { isValidLabelSelector } from './entityScope';
export { AnnotationLocator, instanceOf } from './EnvironmentLocator';
export type {
  GitlabEnvLocator,
  LocateOptions,
  LocatedEntity,
} from './EnvironmentLocator';
