import { IncomingMessage, ServerResponse } from 'http';
import { ApiResource } from '../cluster/resources';
import { readBody, sendJson } from '../http/respond';
import type { KubeApi } from './kubeApi';
import { badRequest, failure, sendStatus } from './status';

/**
 * SelfSubjectAccessReview (`authorization.k8s.io/v1`): "may I do this?",
 * answered from the same RBAC that guards the requests
 * (https://kubernetes.io/docs/reference/access-authn-authz/authorization/#checking-api-access,
 * `pkg/registry/authorization/selfsubjectaccessreview/rest.go`). The subject
 * is agentk's service account, which a rule-less denial leaves without a
 * reason, as RBAC does.
 */

function invalid(message: string) {
  return failure(
    422,
    `SelfSubjectAccessReview.authorization.k8s.io "" is invalid: ${message}`,
    { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' },
  );
}

export async function handleAccessReview(
  api: KubeApi,
  req: IncomingMessage,
  res: ServerResponse,
) {
  let body: any;
  try {
    body = JSON.parse(await readBody(req));
  } catch (e) {
    sendStatus(res, badRequest(`error decoding body: ${(e as Error).message}`));
    return;
  }
  const attributes = body?.spec?.resourceAttributes;
  const nonResource = body?.spec?.nonResourceAttributes;
  if (!!attributes === !!nonResource) {
    sendStatus(
      res,
      invalid(
        'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
    return;
  }
  let allowed = true;
  if (attributes) {
    const group = attributes.group ?? '';
    const plural = attributes.resource ?? '';
    const known = api.store.registry.resources.find(
      r => r.group === group && r.plural === plural,
    );
    const resource: ApiResource = known ?? {
      group,
      plural,
      versions: [attributes.version ?? 'v1'],
      singular: plural,
      kind: '',
      namespaced: true,
      verbs: [],
      subresources: [],
    };
    allowed = !api.isForbidden(
      resource,
      attributes.subresource || undefined,
      attributes.namespace || undefined,
      attributes.verb ?? '',
    );
  }
  sendJson(res, 201, {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: body.spec,
    status: allowed
      ? {
          allowed: true,
          reason: `RBAC: allowed by ClusterRoleBinding "gitlab-agent" of ClusterRole "gitlab-agent" to ServiceAccount "gitlab-agent/gitlab-agent"`,
        }
      : { allowed: false },
  });
}
