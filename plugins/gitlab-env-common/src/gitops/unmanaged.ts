import { ResourceGraph, ResourceNode } from '../types';
import { isFluxObject } from '../k8s/flux';

/**
 * Objects Kubernetes creates in every namespace or for every Service: no
 * GitOps tool applies them, so they are never "unmanaged".
 */
function madeByKubernetes(node: ResourceNode, services: ReadonlySet<string>) {
  if (node.group !== '') return false;
  if (node.kind === 'Event') return true;
  if (node.kind === 'ServiceAccount' && node.name === 'default') return true;
  if (node.kind === 'ConfigMap' && node.name === 'kube-root-ca.crt')
    return true;
  return (
    node.kind === 'Endpoints' && services.has(`${node.namespace}/${node.name}`)
  );
}

/**
 * The claims a StatefulSet's controller made from its volumeClaimTemplates
 * (the `mounts` relation): they carry no ownerReference unless the
 * retention policy deletes them, yet nobody applied them by hand.
 */
function statefulSetClaims(graph: ResourceGraph): Set<string> {
  const statefulSets = new Set(
    graph.nodes.filter(n => n.kind === 'StatefulSet').map(n => n.id),
  );
  return new Set(
    graph.edges
      .filter(e => e.type === 'mounts' && statefulSets.has(e.source))
      .map(e => e.target),
  );
}

/**
 * The objects of the given namespaces that no inventory names and nothing
 * owns: roots of the ownership forest that are neither Flux objects nor
 * Missing entries nor made by Kubernetes itself.
 *
 * @public
 */
export function unmanagedNodes(
  graph: ResourceGraph,
  namespaces: ReadonlySet<string>,
): ResourceNode[] {
  const services = new Set(
    graph.nodes
      .filter(n => n.kind === 'Service' && n.group === '')
      .map(n => `${n.namespace}/${n.name}`),
  );
  const claims = statefulSetClaims(graph);
  return graph.nodes.filter(
    node =>
      !node.parentId &&
      !claims.has(node.id) &&
      !node.missing &&
      namespaces.has(node.namespace) &&
      !isFluxObject(node.group, node.kind) &&
      !madeByKubernetes(node, services),
  );
}
