import {
  ActionDecision,
  ActionTarget,
  EnvironmentCapability,
  GitlabAgentRef,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { KasClient } from '../transport/kasClient';
import { isRecord } from '../validation/json';
import { addressOf } from './targets';

/** What a SelfSubjectAccessReview asks (authorization.k8s.io/v1 ResourceAttributes). */
export interface ResourceAttributes {
  namespace: string;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
}

/**
 * The request each capability makes of the API server, as RBAC sees it:
 * kubectl logs reads pods/log, kubectl scale patches the scale
 * subresource, the rest patch or delete the object. Pods are asked about
 * for the namespace, not by name: they come and go, and one review per
 * namespace serves them all (a rule limited to resourceNames then reads as
 * denied, which only hides an action the cluster might allow).
 */
export function attributesFor(
  capability: EnvironmentCapability,
  target: ActionTarget,
): ResourceAttributes | undefined {
  const address = addressOf(target);
  if (!address) return undefined;
  const base = {
    namespace: target.namespace,
    group: address.group,
    resource: address.plural,
  };
  const named = { ...base, name: target.name };
  switch (capability) {
    case 'pod.logs':
      return { ...base, verb: 'get', subresource: 'log' };
    case 'pod.delete':
      return { ...base, verb: 'delete' };
    case 'workload.scale':
      return { ...named, verb: 'patch', subresource: 'scale' };
    default:
      return { ...named, verb: 'patch' };
  }
}

function keyOf(agentKey: string, a: ResourceAttributes): string {
  return [
    agentKey,
    a.namespace,
    a.verb,
    a.group,
    a.resource,
    a.subresource ?? '',
    a.name ?? '',
  ].join('|');
}

function describeAttributes(a: ResourceAttributes): string {
  const resource = `${a.group ? `${a.group}/` : ''}${a.resource}${
    a.subresource ? `/${a.subresource}` : ''
  }`;
  return `${a.verb} ${resource}${a.name ? ` ${a.name}` : ''} in ${a.namespace}`;
}

const REVIEW_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const MAX_ENTRIES = 10_000;

/**
 * Asks the cluster, through KAS as the backend's token, whether the agent
 * (or the user it impersonates) may make a request: a
 * SelfSubjectAccessReview, what `kubectl auth can-i` sends. Answers are
 * kept for `ttlMs` per agent: the identity KAS acts as is the same for
 * every Backstage user, so they share them.
 */
export class AccessReviewer {
  private readonly answers = new Map<
    string,
    { at: number; decision: ActionDecision }
  >();
  /** Reviews under way: the pods of one namespace ask the same question at once. */
  private readonly pending = new Map<
    string,
    Promise<ActionDecision | undefined>
  >();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async review(
    kas: KasClient,
    agentKey: string,
    agent: GitlabAgentRef,
    attributes: ResourceAttributes,
  ): Promise<ActionDecision> {
    const key = keyOf(agentKey, attributes);
    const cached = this.answers.get(key);
    if (cached && this.now() - cached.at < this.ttlMs) return cached.decision;
    let asked = this.pending.get(key);
    if (!asked) {
      asked = this.ask(kas, agent, attributes).finally(() =>
        this.pending.delete(key),
      );
      this.pending.set(key, asked);
    }
    const decision = await asked;
    if (!decision) {
      // The cluster could not say: offer the action and let the cluster
      // decide when it is taken (its refusal is then typed and explained).
      return {
        allowed: true,
        reason: `The cluster could not be asked whether the agent may ${describeAttributes(
          attributes,
        )}.`,
      };
    }
    this.answers.delete(key);
    this.answers.set(key, { at: this.now(), decision });
    if (this.answers.size > MAX_ENTRIES)
      this.answers.delete(this.answers.keys().next().value!);
    return decision;
  }

  private async ask(
    kas: KasClient,
    agent: GitlabAgentRef,
    attributes: ResourceAttributes,
  ): Promise<ActionDecision | undefined> {
    const response = await kas
      .send({
        method: 'POST',
        path: REVIEW_PATH,
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: attributes },
        },
        // A review creates nothing: its outcome is only ever an answer.
        checkWith: `kubectl auth can-i --list`,
      })
      .catch(() => undefined);
    const status =
      response &&
      response.status >= 200 &&
      response.status < 300 &&
      isRecord(response.body) &&
      isRecord(response.body.status)
        ? response.body.status
        : undefined;
    if (!status || typeof status.allowed !== 'boolean') return undefined;
    if (status.allowed) return { allowed: true };
    const why =
      typeof status.reason === 'string' && status.reason
        ? ` (${status.reason.slice(0, 300)})`
        : '';
    return {
      allowed: false,
      reason: `The cluster's RBAC does not let agent ${
        agent.name
      } ${describeAttributes(attributes)}${why}.`,
    };
  }
}
