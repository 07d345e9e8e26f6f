export { isValidLabelSelector } from './entityScope';
export {
  AnnotationLocator,
  environmentOf,
  instanceOf,
} from './EnvironmentLocator';
export type {
  GitlabEnvLocator,
  LocateOptions,
  LocatedEntity,
} from './EnvironmentLocator';
export { OwningLocator } from './OwningLocator';
export { PortalClaims } from './portalClaims';
export {
  checkTarget,
  claimRefusal,
  projectOfLocation,
  repositoryRefusal,
  scopeKey,
} from './ownership';
export type { NamespaceClaims } from './ownership';
