export { FluxDrawerSection } from './FluxDrawerSection';
export { GitOpsPanel } from './GitOpsPanel';
export {
  MappingSource,
  NamespaceMappingDetails,
  NamespaceOrigin,
} from './NamespaceSource';
