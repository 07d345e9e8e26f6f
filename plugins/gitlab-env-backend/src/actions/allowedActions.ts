import {
  ActionDecision,
  ActionsAllowedResponse,
  ActionTarget,
  capabilitiesForKind,
  EnvironmentCapability,
  KubernetesObject,
  permissionForCapability,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import { GitlabEnvFailure } from '../errors';
import { EnvironmentAgent } from '../facade/GitlabEnvironmentsService';
import { checkTarget } from '../locating/ownership';
import { AccessReviewer, attributesFor } from './accessReview';
import { outsideEnvironment } from './targets';

export interface AllowedContext {
  /** Names of the permissions the signed-in user holds on the entity. */
  granted: Set<string>;
  entityRef: string;
  reviewer: AccessReviewer;
}

/** Why the environment may not act on the object, or undefined (see checkTarget). */
function ownershipRefusal(
  agent: EnvironmentAgent,
  target: ActionTarget,
  object: KubernetesObject,
): string | undefined {
  try {
    checkTarget(agent.scope, target, object, agent.resources);
    return undefined;
  } catch (error) {
    if (error instanceof GitlabEnvFailure) return error.message;
    throw error;
  }
}

/**
 * What may be done with each target: refused outright outside the
 * environment or when the environment does not own it (the same rule the
 * actions check, with its reason), then the permission framework's
 * decision, then the cluster's (a SelfSubjectAccessReview, cached).
 */
export async function decideAllowed(
  targets: ActionTarget[],
  agent: EnvironmentAgent,
  context: AllowedContext,
): Promise<ActionsAllowedResponse> {
  const { environment, kas, agentKey } = agent;
  // From the environment's state; a target it lacks costs at most one
  // list of its kind in its namespace, shared by all of them.
  const known = await Promise.all(targets.map(t => agent.findObject(t)));

  const decide = async (
    capability: EnvironmentCapability,
    target: ActionTarget,
  ): Promise<ActionDecision> => {
    const object = known[targets.indexOf(target)];
    if (!object)
      return {
        allowed: false,
        reason: outsideEnvironment(target, environment.name).message,
      };
    const notOwned = ownershipRefusal(agent, target, object);
    if (notOwned) return { allowed: false, reason: notOwned };
    const permission = permissionForCapability(capability);
    if (!context.granted.has(permission.name))
      return {
        allowed: false,
        reason: `You do not have the permission ${permission.name} for ${context.entityRef}.`,
      };
    return context.reviewer.review(
      kas,
      agentKey,
      environment.agent!,
      attributesFor(capability, target)!,
    );
  };

  return {
    targets: await Promise.all(
      targets.map(async target => {
        const capabilities = capabilitiesForKind(
          target.apiVersion,
          target.kind,
        );
        const decisions = await Promise.all(
          capabilities.map(c => decide(c, target)),
        );
        return {
          target,
          decisions: Object.fromEntries(
            capabilities.map((c, i) => [c, decisions[i]]),
          ),
        };
      }),
    ),
  };
}

/** Every capability of every target refused, for one reason. */
export function noneAllowed(
  targets: ActionTarget[],
  reason: string,
): ActionsAllowedResponse {
  return {
    targets: targets.map(target => ({
      target,
      decisions: Object.fromEntries(
        capabilitiesForKind(target.apiVersion, target.kind).map(c => [
          c,
          { allowed: false, reason },
        ]),
      ),
    })),
  };
}
