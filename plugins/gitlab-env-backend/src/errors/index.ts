export {
  GitlabEnvFailure,
  failure,
  httpStatusOf,
  toBackstageError,
  asGitlabEnvError,
} from './GitlabEnvFailure';
