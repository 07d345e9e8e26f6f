export { AnnotationLocator, instanceOf } from './EnvironmentLocator';
export type { GitlabEnvLocator, LocatedEntity } from './EnvironmentLocator';
