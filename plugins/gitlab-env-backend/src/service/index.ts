export { GitlabEnvironmentsService } from './GitlabEnvironmentsService';
export type {
  GitlabEnvironmentsServiceOptions,
  ListEnvironmentsOptions,
} from './GitlabEnvironmentsService';
export { isValidLabelSelector } from './entityScope';
