/**
 * The isomorphic engine of the GitLab environments plugins: shared types,
 * Kubernetes object helpers, ArgoCD-compatible health, resource graph
 * inference and roll-up.
 *
 * @packageDocumentation
 */
export * from './types';
export * from './k8s';
export * from './annotations';
export * from './permissions';
export * from './health';
export * from './graph';
export * from './overview';
export * from './ciAccess';
export * from './events';
export * from './environments';
export * from './gitops';
export * from './actions';
export * from './history';
export * from './tree';
export * from './usage';
export * from './assistant';
