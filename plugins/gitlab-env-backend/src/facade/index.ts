export { GitlabEnvironmentsService } from './GitlabEnvironmentsService';
export type {
  CallOptions,
  GitlabEnvironmentsServiceOptions,
  ListEnvironmentsOptions,
} from './GitlabEnvironmentsService';
