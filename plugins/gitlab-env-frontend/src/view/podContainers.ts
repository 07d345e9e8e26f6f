import { KubernetesObject } from '@gitlab-env/backstage-plugin-gitlab-env-common';

/** A container of a pod that has logs: regular, init or ephemeral. */
export interface PodContainer {
  name: string;
  type: 'container' | 'init' | 'ephemeral';
}

/** The containers a pod's spec names, regular ones first, for the log picker. */
export function podContainers(
  pod: KubernetesObject | undefined,
): PodContainer[] {
  const spec = pod?.spec ?? {};
  const named = (list: unknown, type: PodContainer['type']): PodContainer[] =>
    Array.isArray(list)
      ? list.flatMap(container =>
          typeof container?.name === 'string'
            ? [{ name: container.name as string, type }]
            : [],
        )
      : [];
  return [
    ...named(spec.containers, 'container'),
    ...named(spec.initContainers, 'init'),
    ...named(spec.ephemeralContainers, 'ephemeral'),
  ];
}
