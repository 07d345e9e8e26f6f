export { FluxDrawerSection } from './FluxDrawerSection';
export { GitOpsPanel } from './GitOpsPanel';
export { MappingSource, NamespaceMappingDetails } from './NamespaceSource';
