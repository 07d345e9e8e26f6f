import { LoggerService } from '@backstage/backend-plugin-api';
import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import pLimit from 'p-limit';
import type { LocatedEntity } from './EnvironmentLocator';
import type { NamespaceClaims } from './ownership';

/** Entities walked at most per refresh, and located at once. */
const MAX_ENTITIES = 2000;
const CONCURRENCY = 8;

export interface PortalClaimsOptions {
  /** Every catalog entity with a GitLab project annotation, page by page, read with the plugin's own credentials. */
  entities: () => AsyncIterable<Entity[]>;
  /** The one locator, before ownership is applied (it is what ownership needs). */
  locate: (entity: Entity) => Promise<LocatedEntity>;
  refreshMs: number;
  logger: LoggerService;
}

class ClaimsIndex implements NamespaceClaims {
  private readonly byPlace = new Map<string, Set<string>>();

  add(host: string, agentId: string, namespace: string, project: string) {
    const key = `${host}|${agentId}|${namespace}`;
    let projects = this.byPlace.get(key);
    if (!projects) this.byPlace.set(key, (projects = new Set()));
    projects.add(project);
  }

  projectsClaiming(host: string, agentId: string, namespace: string): string[] {
    return [...(this.byPlace.get(`${host}|${agentId}|${namespace}`) ?? [])];
  }
}

/**
 * Which GitLab projects' environments claim which namespace of which
 * agent, across every annotated entity of the catalog: GitLab has no index
 * from an agent to the environments that deploy through it, and the
 * portal's catalog names the projects it serves. Built on first need with
 * the plugin's own credentials through the one locator (whose listings
 * are cached and shared with the pages), kept `refreshMs` and rebuilt in
 * the background after that: callers get the last complete index at once.
 * Only namespaces GitLab's environment settings give count: a
 * GitLabDeployment settles its namespace, and inferred namespaces are
 * never owned. A project outside the catalog is not seen: a
 * GitLabDeployment is then what settles a namespace.
 */
export class PortalClaims {
  private index?: { value: ClaimsIndex; builtAt: number };
  private building?: Promise<ClaimsIndex>;

  constructor(private readonly options: PortalClaimsOptions) {}

  /** The last complete index, building the first one (and a newer one when it is stale). */
  async current(): Promise<NamespaceClaims> {
    const held = this.index;
    if (held) {
      if (Date.now() - held.builtAt > this.options.refreshMs)
        this.build().catch(() => undefined);
      return held.value;
    }
    return this.build();
  }

  /** The index when one is built, without waiting; undefined before the first. */
  peek(): NamespaceClaims | undefined {
    return this.index?.value;
  }

  private build(): Promise<ClaimsIndex> {
    if (!this.building) {
      this.building = this.walk()
        .then(value => {
          this.index = { value, builtAt: Date.now() };
          return value;
        })
        .finally(() => {
          this.building = undefined;
        });
    }
    return this.building;
  }

  private async walk(): Promise<ClaimsIndex> {
    const index = new ClaimsIndex();
    const limit = pLimit(CONCURRENCY);
    const seen = new Set<string>();
    const jobs: Array<Promise<void>> = [];
    let walked = 0;
    for await (const page of this.options.entities()) {
      for (const entity of page) {
        if (walked++ >= MAX_ENTITIES) break;
        const annotations = entity.metadata.annotations ?? {};
        // Entities of one project need one listing.
        const project = JSON.stringify([
          annotations['gitlab.com/instance'] ?? '',
          annotations['gitlab.com/project-slug'] ??
            annotations['gitlab.com/project-id'] ??
            stringifyEntityRef(entity),
        ]);
        if (seen.has(project)) continue;
        seen.add(project);
        jobs.push(
          limit(async () => {
            try {
              const located = await this.options.locate(entity);
              for (const environment of located.allEnvironments ??
                located.environments) {
                const source = environment.namespaceSource?.source ?? 'gitlab';
                if (
                  environment.state === 'stopped' ||
                  source !== 'gitlab' ||
                  !environment.agent ||
                  !environment.namespace
                )
                  continue;
                index.add(
                  located.host,
                  environment.agent.id,
                  environment.namespace,
                  located.project.fullPath,
                );
              }
            } catch (error) {
              this.options.logger.debug(
                `Ownership: ${stringifyEntityRef(
                  entity,
                )}'s environments could not be listed: ${error}`,
              );
            }
          }),
        );
      }
      if (walked >= MAX_ENTITIES) break;
    }
    await Promise.all(jobs);
    return index;
  }
}
