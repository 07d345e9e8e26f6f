export { GitlabEnvironmentsService } from './GitlabEnvironmentsService';
export type { ListEnvironmentsOptions } from './GitlabEnvironmentsService';
export { isValidLabelSelector } from './entityScope';
