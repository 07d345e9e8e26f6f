export { GitlabEnvironmentsService } from './GitlabEnvironmentsService';
export type {
  CallOptions,
  GitlabEnvironmentsServiceOptions,
  ListEnvironmentsOptions,
  ReadGathering,
} from './GitlabEnvironmentsService';
