export {
  GitlabEnvFailure,
  failure,
  isDefinitiveFailure,
  httpStatusOf,
  toBackstageError,
  asGitlabEnvError,
} from './GitlabEnvFailure';
