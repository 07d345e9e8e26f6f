export { AccessAndNamespaces } from './AccessAndNamespaces';
export { StaleNamespacesOverview } from './StaleNamespacesOverview';
