import { Entity, stringifyEntityRef } from '@backstage/catalog-model';
import {
  EntityVersions,
  environmentImages,
  EnvironmentVersion,
  GitlabEnvironment,
  KubernetesObject,
  promotionDiff,
  PromotionDiffResponse,
} from '@gitlab-env/backstage-plugin-gitlab-env-common';
import pLimit from 'p-limit';
import { asGitlabEnvError, failure } from '../errors';
import { CallOptions, GitlabEnvironmentsService } from '../facade';
import type { LocatedEntity } from '../locating';
import { compareCommits } from '../transport/gitlabRepository';
import { GitlabAccess } from './gitlabAccess';

/** Tiers from the first to the last an environment is promoted to. */
const TIER_ORDER = ['development', 'testing', 'staging', 'production'];

function plural(n: number, word: string) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What each environment of an entity runs (its last successful
 * deployment's ref and commit, its workloads' images) and, for each
 * environment with an environment of a lower tier, how many commits it is
 * behind (and ahead of) the most recently deployed of those, with GitLab's
 * comparison page.
 */
export class EnvironmentVersions {
  constructor(
    private readonly service: GitlabEnvironmentsService,
    private readonly gitlab: GitlabAccess,
  ) {}

  /** One environment's version, its objects' images from its (cached) read. */
  private async versionOf(
    entity: Entity,
    environment: GitlabEnvironment,
    options: CallOptions,
  ): Promise<{ version: EnvironmentVersion; objects?: KubernetesObject[] }> {
    const deployed = environment.lastDeployment;
    const version: EnvironmentVersion = {
      environment: {
        name: environment.name,
        slug: environment.slug,
        tier: environment.tier,
        webUrl: environment.webUrl,
      },
      ref: deployed?.ref,
      sha: deployed?.sha,
      shortSha: deployed?.sha?.slice(0, 8),
      deployedAt: deployed?.finishedAt,
      images: {},
    };
    if (!environment.agent || !environment.namespace) return { version };
    try {
      const read = await this.service.getEnvironmentResources(
        entity,
        environment.slug,
        options,
      );
      version.images = environmentImages(read.resources);
      const errors = read.errors.filter(e => !e.expected);
      if (errors.length > 0) version.errors = errors;
      return { version, objects: read.resources };
    } catch (error) {
      version.errors = [asGitlabEnvError(error)];
      return { version };
    }
  }

  async ofEntity(
    entity: Entity,
    options: CallOptions = {},
  ): Promise<EntityVersions> {
    const entityRef = stringifyEntityRef(entity);
    let located: LocatedEntity;
    try {
      located = await this.service.locate(entity, options);
    } catch (error) {
      return {
        entityRef,
        title: entity.metadata.title,
        environments: [],
        errors: [asGitlabEnvError(error)],
      };
    }
    const environments = located.environments.filter(
      e => e.state !== 'stopped',
    );
    const limit = pLimit(4);
    const versions = await Promise.all(
      environments.map(e =>
        limit(
          async () =>
            (
              await this.versionOf(entity, e, { ...options, located })
            ).version,
        ),
      ),
    );
    const signal = this.service.callSignal(options);
    await Promise.all(
      versions.map(version =>
        this.compareWithLowerTier(located, version, versions, signal),
      ),
    );
    return {
      entityRef,
      title: entity.metadata.title,
      project: {
        fullPath: located.project.fullPath,
        webUrl: located.project.webUrl,
      },
      environments: versions.sort(
        (a, b) =>
          TIER_ORDER.indexOf(b.environment.tier) -
            TIER_ORDER.indexOf(a.environment.tier) ||
          a.environment.name.localeCompare(b.environment.name, 'en'),
      ),
    };
  }

  /** How far an environment's commit is from the newest deployment of the next lower tier. */
  private async compareWithLowerTier(
    located: LocatedEntity,
    version: EnvironmentVersion,
    all: EnvironmentVersion[],
    signal: AbortSignal,
  ) {
    const rank = TIER_ORDER.indexOf(version.environment.tier);
    if (rank <= 0 || !version.sha) return;
    const lower = all
      .filter(
        v =>
          v.sha &&
          TIER_ORDER.indexOf(v.environment.tier) >= 0 &&
          TIER_ORDER.indexOf(v.environment.tier) < rank,
      )
      .sort(
        (a, b) =>
          TIER_ORDER.indexOf(b.environment.tier) -
            TIER_ORDER.indexOf(a.environment.tier) ||
          (b.deployedAt ?? '').localeCompare(a.deployedAt ?? ''),
      )[0];
    if (!lower?.sha) return;
    const instance = this.gitlab.instance(located.host);
    const project = located.project.fullPath;
    const count = async (from: string, to: string) => {
      const compared = await this.gitlab.cached(
        instance,
        `compare|${instance.host}|${project}|${from}|${to}`,
        rest => compareCommits(rest, instance, project, from, to),
        signal,
      );
      return (
        compared && { n: compared.commits.length, more: compared.truncated }
      );
    };
    try {
      const [behind, ahead] =
        lower.sha === version.sha
          ? [
              { n: 0, more: false },
              { n: 0, more: false },
            ]
          : await Promise.all([
              count(version.sha, lower.sha),
              count(lower.sha, version.sha),
            ]);
      if (!behind || !ahead) return;
      const says = (c: { n: number; more: boolean }) =>
        c.more ? `more than ${plural(c.n, 'commit')}` : plural(c.n, 'commit');
      const name = version.environment.name;
      const other = lower.environment.name;
      let summary = `${name} runs the same commit as ${other}`;
      if (behind.n > 0 && ahead.n > 0)
        summary = `${name} is ${says(behind)} behind ${other} and ${says(
          ahead,
        )} ahead of it`;
      else if (behind.n > 0)
        summary = `${name} is ${says(behind)} behind ${other}`;
      else if (ahead.n > 0)
        summary = `${name} is ${says(ahead)} ahead of ${other}`;
      version.comparedWith = {
        slug: lower.environment.slug,
        name: other,
        behind: behind.n,
        ahead: ahead.n,
        ...(lower.sha !== version.sha && {
          compareUrl: `${located.project.webUrl}/-/compare/${version.sha}...${lower.sha}`,
        }),
        summary,
      };
    } catch (error) {
      version.errors = [...(version.errors ?? []), asGitlabEnvError(error)];
    }
  }

  /**
   * What promoting one environment of an entity to another would change:
   * the engine's promotionDiff of their objects (workloads, images,
   * replicas, config keys; Secrets by key only).
   */
  async promotion(
    entity: Entity,
    fromSlug: string,
    toSlug: string,
    options: CallOptions = {},
  ): Promise<PromotionDiffResponse> {
    if (fromSlug === toSlug)
      throw failure(
        'INVALID_REQUEST',
        'Pick two different environments to compare.',
      );
    const located = await this.service.locate(entity, options);
    const find = (slug: string) => {
      const environment = located.environments.find(e => e.slug === slug);
      if (!environment)
        throw failure(
          'ENVIRONMENT_NOT_FOUND',
          `The project ${located.project.fullPath} has no environment '${slug}' shown for this entity.`,
        );
      return environment;
    };
    const [from, to] = await Promise.all([
      this.versionOf(entity, find(fromSlug), { ...options, located }),
      this.versionOf(entity, find(toSlug), { ...options, located }),
    ]);
    await this.compareWithLowerTier(
      located,
      to.version,
      [from.version, to.version],
      this.service.callSignal(options),
    );
    const errors = [
      ...(from.version.errors ?? []),
      ...(to.version.errors ?? []),
    ];
    return {
      from: from.version,
      to: to.version,
      differences:
        from.objects && to.objects
          ? promotionDiff(from.objects, to.objects)
          : [],
      ...(errors.length > 0 && { errors }),
    };
  }
}
