export {
  compareEnvironments,
  environmentFolder,
  groupEnvironments,
  nameInFolder,
} from './groupEnvironments';
export type { EnvironmentGroup } from './groupEnvironments';
