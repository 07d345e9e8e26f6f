export { FluxDrawerSection } from './FluxDrawerSection';
export { GitOpsPanel, MappingSource } from './GitOpsPanel';
